// What the extension sends the host, as the host reads it: a Host whose
// extension has said hello (two tabs), one helloed session on its socket, then
// each line of the input as one native-messaging frame from the extension —
// events, answers, requests, with text that is not well-formed (invalid
// UTF-8, \ud83d without its low half: what a page's text can become). The
// link must stay up whatever the frames hold (issue 29: a page must not be
// able to cut the browser off): a finding is a host that closed it, unless a
// frame was a hello of another protocol (the one message that ends the host
// by design). A crash, a sanitizer report or an exception out of a handler
// (this build aborts) is a finding too.
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

// Whether the host still holds its end of the link: the loop has run, what it
// wrote is read, and the socket has not reached end of file.
bool LinkOpen(const tb::fuzz::Peer& extension) {
  extension.Pump();
  char byte = 0;
  for (;;) {
    const ssize_t n = ::recv(extension.fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0) return false;
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
    extension.Pump(1);  // more came: read it and look again
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  std::signal(SIGPIPE, SIG_IGN);
  char dir[] = "/tmp/tb-fuzz-link-XXXXXX";
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
                   .navigation_settle_ms = 50,
                   .heartbeat_ms = 3'600'000});  // a ping unanswered must not be what closes the link
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
    // The session focuses tab 1, so page tools and own-tool reports have somewhere to go.
    session.Write(tb::LineFramer::Encode(
        tb::rpc::Dump(tb::rpc::MakeRequest(2, "tools/call", {{"name", "focus_tab"}, {"arguments", {{"tabId", 1}}}}))));
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    while (!rest.empty()) {
      const auto end = rest.find('\n');
      const std::string_view line = rest.substr(0, end);
      if (!line.empty()) extension.Write(tb::NativeFramer::Encode(line));  // an empty frame breaks the stream by design
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
    session.Pump();
    if (!LinkOpen(extension) && host.exit_code() == 0) {
      std::fprintf(stderr, "extension_link_fuzz: the host closed the link to the extension\n");
      std::abort();
    }
    session.Close();
    extension.Close();
    session.Pump();
  }
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  return 0;
}
