// The host's session handler and its extension link, in process: a Host
// whose extension has said hello (two tabs), one helloed session on its
// socket, then the input's lines — a line starting with '!' goes to the
// extension as one native-messaging frame, any other to the session. The
// host answers or ignores each and never throws out of a handler (this
// build aborts if one does).
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

#include "common/framing.h"
#include "common/jsonrpc.h"
#include "common/protocol.h"
#include "fuzz/uv_peer.h"
#include "host/host.h"

namespace {

std::string g_socket_dir;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  std::signal(SIGPIPE, SIG_IGN);  // as the programs do: a closed peer is an error, not a signal
  char dir[] = "/tmp/tb-fuzz-host-XXXXXX";
  if (::mkdtemp(dir) == nullptr) std::abort();
  g_socket_dir = std::string(dir) + "/sock";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  uv_loop_t loop;
  uv_loop_init(&loop);
  {
    tb::fuzz::Peer extension;
    auto transport = tb::fuzz::Peer::Pair(&loop, tb::Framing::kNative, tb::kMaxFrameFromExtension, extension);
    tb::Host host(&loop, std::move(transport),
                  {.socket_dir = g_socket_dir,
                   .allowed_uid = static_cast<long>(::getuid()),
                   .browser_pid = 0,
                   .extension_deadline_ms = 50,
                   .navigation_settle_ms = 50});
    host.Start();
    extension.Write(tb::NativeFramer::Encode(tb::rpc::Dump(
        tb::rpc::MakeNotification(tb::ext_event::kHello, {{"protocol", tb::kExtensionProtocol},
                                                          {"browser", {{"name", "Fuzz"}, {"version", "1"}}},
                                                          {"tabs", {tb::fuzz::FakeTab(1), tb::fuzz::FakeTab(2)}}}))));
    tb::fuzz::Peer session{tb::fuzz::ConnectTo(g_socket_dir + "/browser-0.sock"), &loop};
    if (session.fd < 0) std::abort();  // the host did not open its socket
    extension.Pump();
    session.Write(tb::LineFramer::Encode(tb::rpc::Dump(
        tb::rpc::MakeRequest(1, tb::shim_method::kHello, {{"protocol", tb::kShimProtocol}, {"caps", {"eval"}}}))));
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    while (!rest.empty()) {
      const auto end = rest.find('\n');
      const std::string_view line = rest.substr(0, end);
      if (line.starts_with('!'))
        extension.Write(tb::NativeFramer::Encode(line.substr(1)));
      else
        session.Write(tb::LineFramer::Encode(line));
      session.Pump();
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
    session.Close();
    extension.Close();
    session.Pump();
  }
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  return 0;
}
