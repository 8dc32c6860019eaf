// bench_roundtrip: fake extension + tabbridge-host + tabbridge shim, the shim
// connected with connect_browser {}; times MCP round trips as a client sees
// them, then reads each process's peak RSS (VmHWM).
//   ping            answered by the shim itself (the stdio floor)
//   tools/list      shim -> host socket -> shim
//   list_tabs       the same, through the host's tool dispatch
//   open_tab        all the way to the fake extension and back
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include <unistd.h>

#include "bench/stats.h"
#include "tests/fake_extension/fake_extension.h"
#include "tests/fake_extension/mcp_driver.h"
#include "tests/fake_extension/temp_dir.h"

namespace {

using tb::bench::Format;
using tb::bench::Row;
using tb::fake::Json;

constexpr auto kTimeout = std::chrono::seconds(10);

struct Args {
  std::string host = TB_HOST_BINARY;
  std::string shim = TB_SHIM_BINARY;
  int calls = 5000;
  int opens = 1000;
};

Args Parse(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--host") == 0)
      args.host = argv[i + 1];
    else if (std::strcmp(argv[i], "--shim") == 0)
      args.shim = argv[i + 1];
    else if (std::strcmp(argv[i], "--calls") == 0)
      args.calls = std::max(1, std::atoi(argv[i + 1]));
    else if (std::strcmp(argv[i], "--opens") == 0)
      args.opens = std::max(1, std::atoi(argv[i + 1]));
  }
  return args;
}

// Times `n` requests made by `call` (which returns false on a bad answer).
std::optional<tb::bench::Summary> Measure(int n, const std::function<bool(int)>& call) {
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (!call(i)) return std::nullopt;
    samples.push_back(tb::bench::MicrosSince(start));
  }
  return tb::bench::Summarize(std::move(samples));
}

void Report(const std::string& what, const tb::bench::Summary& s, const std::string& target) {
  Row(what,
      Format("p50 %.0f µs / p99 %.0f µs / %.0f calls/s (n=%zu)", s.p50, s.p99, 1e6 * static_cast<double>(s.n) / s.total,
             s.n),
      target);
}

// CPU time (user + system) the process has used so far, in µs; -1 when unknown.
double CpuMicros(pid_t pid) {
  std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (!f) return -1;
  char buf[1024] = {};
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  // Fields after the command name (which may hold spaces) start after its ')'.
  const char* p = std::strrchr(buf, ')');
  if (n == 0 || !p) return -1;
  unsigned long utime = 0, stime = 0;
  if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2) return -1;
  return 1e6 * static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

int Fail(const std::string& why) {
  std::fprintf(stderr, "bench_roundtrip: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = Parse(argc, argv);
  tb::fake::TempDir work("tb-bench-");
  tb::fake::FakeExtensionOptions options;
  options.host_binary = args.host;
  options.socket_dir = work.path();
  options.stderr_path = "/dev/null";
  auto extension = tb::fake::FakeExtension::Start(options);
  if (!extension) return Fail(extension.error());
  if (!(*extension)->WaitForSocket(0, kTimeout)) return Fail("the host never opened its socket");

  auto shim = tb::fake::McpDriver::Start(
      {.shim_binary = args.shim, .args = {}, .socket_dir = work.path(), .env = {}, .stderr_path = "/dev/null"});
  if (!shim) return Fail(shim.error());
  auto& driver = **shim;
  auto& rpc = driver.rpc();
  if (!driver.Initialize(kTimeout)) return Fail("no initialize response");
  const auto connected = driver.CallTool("connect_browser", Json::object(), kTimeout);
  if (!connected || tb::fake::IsToolError(*connected)) return Fail("connect_browser failed");

  auto ok = [&](const std::optional<Json>& response) {
    return response && response->contains("result") && !tb::fake::IsToolError(*response);
  };
  auto ping = [&](int) { return ok(rpc.Request("ping", Json::object(), tb::fake::DeadlineIn(kTimeout))); };
  auto tools_list = [&](int) { return ok(rpc.Request("tools/list", Json::object(), tb::fake::DeadlineIn(kTimeout))); };
  auto list_tabs = [&](int) { return ok(driver.CallTool("list_tabs", Json::object(), kTimeout)); };
  auto open_tab = [&](int i) {
    return ok(driver.CallTool("open_tab", {{"url", "http://127.0.0.1/bench/" + std::to_string(i)}, {"focus", false}},
                              kTimeout));
  };

  Measure(200, tools_list);  // warm up both processes
  const auto ping_s = Measure(args.calls, ping);
  const auto list_s = Measure(args.calls, tools_list);
  // The focused tab's tool list (the largest answer the host forwards here):
  // what relaying one answer costs the shim, in its own CPU time.
  const auto tabs = driver.CallTool("list_tabs", Json::object(), kTimeout);
  const Json tab_id = tabs ? (*tabs)["result"]["structuredContent"]["tabs"][0]["id"] : Json();
  if (!ok(driver.CallTool("focus_tab", {{"tabId", tab_id}}, kTimeout))) return Fail("focus_tab failed");
  std::size_t focused_list_bytes = 0;
  if (auto r = rpc.Request("tools/list", Json::object(), tb::fake::DeadlineIn(kTimeout))) {
    focused_list_bytes = r->dump().size();
  }
  const double cpu_before = CpuMicros(driver.process().pid());
  const auto focused_s = Measure(args.calls, tools_list);
  const double shim_cpu_per_call = (CpuMicros(driver.process().pid()) - cpu_before) / args.calls;
  const auto tabs_s = Measure(args.calls, list_tabs);
  const auto open_s = Measure(args.opens, open_tab);
  if (!ping_s || !list_s || !focused_s || !tabs_s || !open_s) return Fail("a call failed during the run");
  rpc.TakeNotifications();

  Report("ping (answered by the shim: stdio floor)", *ping_s, "—");
  Report("tools/list round trip (shim ↔ host)", *list_s, "p50 < 300 µs");
  Report("tools/list, tab focused (" + std::to_string(focused_list_bytes) + " B answer)", *focused_s, "—");
  Row("shim CPU per relayed tools/list answer (focused)", Format("%.1f µs", shim_cpu_per_call), "—");
  Report("tools/call list_tabs round trip", *tabs_s, "p50 < 300 µs");
  Report("tools/call open_tab (↔ host ↔ extension)", *open_s, "—");
  Row("shim peak RSS (VmHWM)", Format("%.1f MB", static_cast<double>(driver.process().PeakRssKb()) / 1024.0), "< 8 MB");
  Row("host peak RSS (VmHWM)", Format("%.1f MB", static_cast<double>((*extension)->HostPeakRssKb()) / 1024.0),
      "< 15 MB");
  return 0;
}
