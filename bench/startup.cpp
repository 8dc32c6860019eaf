// bench_startup: how long an MCP client waits for the shim — from spawning
// `tabbridge` to reading its initialize response — over N fresh processes.
// For scale it also times `tabbridge --version` (spawn, load, exit), the
// floor any start of the binary pays.
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench/stats.h"
#include "tests/fake_extension/mcp_driver.h"
#include "tests/fake_extension/temp_dir.h"

namespace {

using tb::bench::Format;
using tb::bench::Row;

constexpr auto kTimeout = std::chrono::seconds(10);

struct Args {
  std::string shim = TB_SHIM_BINARY;
  int runs = 50;
};

Args Parse(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--shim") == 0)
      args.shim = argv[i + 1];
    else if (std::strcmp(argv[i], "--runs") == 0)
      args.runs = std::max(1, std::atoi(argv[i + 1]));
  }
  return args;
}

// Spawn -> initialize response, in ms; negative on failure.
double TimeInitialize(const Args& args, const std::string& socket_dir) {
  const auto start = std::chrono::steady_clock::now();
  auto shim = tb::fake::McpDriver::Start(
      {.shim_binary = args.shim, .args = {}, .socket_dir = socket_dir, .env = {}, .stderr_path = "/dev/null"});
  if (!shim) return -1;
  const auto response = (*shim)->Initialize(kTimeout);
  const double ms = tb::bench::MicrosSince(start) / 1000.0;
  return response && response->contains("result") ? ms : -1;
}

// Spawn -> exit of `tabbridge --version`, in ms; negative on failure.
double TimeVersion(const Args& args) {
  const auto start = std::chrono::steady_clock::now();
  auto child = tb::fake::ChildProcess::Spawn({.argv = {args.shim, "--version"}, .env = {}, .stderr_path = "/dev/null"});
  if (!child) return -1;
  const auto status = (*child)->WaitExit(kTimeout);
  const double ms = tb::bench::MicrosSince(start) / 1000.0;
  return status && status->clean() ? ms : -1;
}

std::string Figures(const tb::bench::Summary& s) {
  return Format("min %.2f / p50 %.2f / p99 %.2f ms (n=%zu)", s.min, s.p50, s.p99, s.n);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = Parse(argc, argv);
  tb::fake::TempDir socket_dir("tb-bench-");
  std::vector<double> initialize, version;
  for (int i = 0; i < 3; ++i) TimeInitialize(args, socket_dir.path());  // warm the page cache
  for (int i = 0; i < args.runs; ++i) {
    const double ms = TimeInitialize(args, socket_dir.path());
    if (ms < 0) {
      std::fprintf(stderr, "bench_startup: the shim did not answer initialize (run %d)\n", i);
      return 1;
    }
    initialize.push_back(ms);
    version.push_back(TimeVersion(args));
  }
  Row("shim start: spawn → initialize response", Figures(tb::bench::Summarize(initialize)), "< 10 ms");
  Row("shim `--version`: spawn → exit (floor)", Figures(tb::bench::Summarize(version)), "—");
  return 0;
}
