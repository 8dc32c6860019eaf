// The in-process host fixture: a real Host on a libuv loop, its extension
// played over a socketpair and its shims over real connections to its Unix
// socket. Shared by host_state_test.cpp and own_tools_host_test.cpp.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/framing.h"
#include "common/jsonrpc.h"
#include "common/protocol.h"
#include "common/socket_dir.h"
#include "common/tool_catalog.h"
#include "common/uv_util.h"
#include "host/host.h"

namespace tb::testing_host {

struct Peer {
  int fd = -1;
  bool native = false;
  NativeFramer native_framer{kMaxFrameFromExtension};
  LineFramer line_framer{kMaxLineBytes};
  std::vector<Json> inbox;  // everything received, in order
  bool eof = false;
  std::function<void()> pump;  // runs the host while a write waits for room

  void Read() {
    char buf[65536];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof(buf));
      if (n == 0) eof = true;
      if (n <= 0) return;
      std::vector<std::string> frames;
      if (native)
        native_framer.Feed({buf, static_cast<std::size_t>(n)}, frames);
      else
        line_framer.Feed({buf, static_cast<std::size_t>(n)}, frames);
      for (auto& f : frames) inbox.push_back(Json::parse(f));
    }
  }
  void Write(const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n > 0)
        done += static_cast<std::size_t>(n);
      else if (errno != EAGAIN)
        return;
      else if (pump)
        pump();
    }
  }
  int CountMethod(std::string_view method) const {
    int count = 0;
    for (const auto& m : inbox) count += m.value("method", "") == method;
    return count;
  }
  int ListChanged() const { return CountMethod(mcp::kToolsListChanged); }
};

inline void NonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

inline Json TabJson(std::int64_t id, std::string url, std::string title = "T") {
  return {{"id", id}, {"windowId", 1}, {"title", title}, {"url", url}, {"status", "complete"}, {"active", false}};
}

class HostTest : public ::testing::Test {
 protected:
  void SetUp() override { uv_loop_init(&loop_); }

  void StartHost(std::uint64_t deadline_ms = 10'000) {
    char tmpl[] = "/tmp/tb-unit-XXXXXX";
    root_ = ::mkdtemp(tmpl);
    dir_ = root_ + "/sock";
    int fds[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    ext_.fd = fds[1];
    ext_.native = true;
    ext_.pump = [this] { PumpOnce(); };
    NonBlocking(ext_.fd);
    auto* pipe = NewHandle<uv_pipe_t>();
    uv_pipe_init(&loop_, pipe, 0);
    uv_pipe_open(pipe, fds[0]);
    auto* stream = reinterpret_cast<uv_stream_t*>(pipe);
    host_ = std::make_unique<Host>(
        &loop_, std::make_unique<Transport>(stream, stream, Framing::kNative, kMaxFrameFromExtension),
        HostOptions{.socket_dir = dir_,
                    .allowed_uid = static_cast<long>(getuid()),
                    .browser_pid = 4242,
                    .extension_deadline_ms = deadline_ms,
                    .navigation_settle_ms = settle_ms_,
                    .policy_path = policy_path_,
                    .audit_path = audit_path_,
                    .policy_poll_ms = policy_poll_ms_,
                    .grant_ask_ms = grant_ask_ms_});
    host_->Start();
  }

  void TearDown() override {
    host_.reset();
    for (auto* peer : peers_) ::close(peer->fd);
    if (ext_.fd >= 0) ::close(ext_.fd);
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
    if (!root_.empty()) std::filesystem::remove_all(root_);
  }

  void PumpOnce() {
    uv_run(&loop_, UV_RUN_NOWAIT);
    ext_.Read();
    for (auto* peer : peers_) peer->Read();
  }

  // Runs the loop and reads every peer until `done` or the deadline.
  bool PumpUntil(const std::function<bool()>& done, int timeout_ms = 5000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
      uv_run(&loop_, UV_RUN_NOWAIT);
      ext_.Read();
      for (auto* peer : peers_) peer->Read();
      if (done()) return true;
      std::vector<pollfd> fds{{ext_.fd, POLLIN, 0}};
      for (auto* peer : peers_) fds.push_back({peer->fd, POLLIN, 0});
      ::poll(fds.data(), fds.size(), 1);
    }
    return false;
  }

  // An answer's blocks as the extension marks them (host/read_provenance.h):
  // one that says nothing of where it was read is the tool's own words here
  // ([]: no page text); read_provenance_test judges the marks themselves.
  void SendExt(const Json& message) { SendExtAsIs(WithReadMarks(message)); }
  void SendExtAsIs(const Json& message) { ext_.Write(NativeFramer::Encode(rpc::Dump(message))); }
  static Json WithReadMarks(Json message) {
    if (!message.is_object() || !message.contains("result") || !message["result"].is_object()) return message;
    Json& result = message["result"];
    if (!result.contains("content") || !result["content"].is_array()) return message;
    const std::string mark(ext_method::kReadMeta);
    for (Json& block : result["content"]) {
      if (block.is_object() && !(block.contains("_meta") && block["_meta"].contains(mark)))
        block["_meta"][mark] = Json::array();
    }
    if (!(result.contains("_meta") && result["_meta"].contains(mark))) result["_meta"][mark] = Json::array();
    return message;
  }
  void ExtEvent(std::string_view event, Json params) { SendExt(rpc::MakeNotification(event, std::move(params))); }

  void Hello(Json tabs = Json::array()) {
    ExtEvent(ext_event::kHello, {{"protocol", kExtensionProtocol},
                                 {"browser", {{"name", "Chromium"}, {"version", "156"}, {"headless", headless_}}},
                                 {"extension", {{"id", kExtensionId}, {"version", "0.1.0"}}},
                                 {"tabs", std::move(tabs)}});
    ASSERT_TRUE(PumpUntil([&] { return std::filesystem::exists(SocketPath(dir_, 0)); })) << "no socket after hello";
  }

  Peer& Connect() {
    auto peer = std::make_unique<Peer>();
    peer->fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string path = SocketPath(dir_, 0);
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    EXPECT_EQ(::connect(peer->fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    NonBlocking(peer->fd);
    peer->pump = [this] { PumpOnce(); };
    peers_.push_back(peer.get());
    owned_.push_back(std::move(peer));
    return *owned_.back();
  }

  // Sends a request and pumps until its response; returns the response.
  Json Call(Peer& peer, std::string_view method, Json params = Json::object()) {
    const int id = next_id_++;
    peer.Write(LineFramer::Encode(rpc::Dump(rpc::MakeRequest(id, method, std::move(params)))));
    Json response;
    EXPECT_TRUE(PumpUntil([&] {
      for (const auto& m : peer.inbox) {
        if (m.contains("id") && m["id"] == id && !m.contains("method")) return response = m, true;
      }
      return false;
    })) << "no answer to "
        << method;
    return response;
  }

  Peer& Session(Json caps = Json::array(), Json extra_hello = Json::object()) {
    Peer& peer = Connect();
    Json params = {{"protocol", kShimProtocol}, {"client", {{"name", "test"}}}, {"caps", std::move(caps)}};
    params.update(extra_hello);
    const Json hello = Call(peer, shim_method::kHello, std::move(params));
    EXPECT_TRUE(hello.contains("result")) << hello;
    return peer;
  }

  std::vector<std::string> ToolNames(Peer& peer) {
    std::vector<std::string> names;
    const Json response = Call(peer, mcp::kToolsList);  // held: a temporary would die before the loop
    for (const auto& tool : response["result"]["tools"]) names.push_back(tool["name"]);
    return names;
  }

  // Sends tools/call `name` as request `id` without waiting: the test then
  // plays the extension's part before the reply can come.
  void StartTool(Peer& peer, int id, std::string_view name, Json args = Json::object(), Json meta = nullptr) {
    Json params = {{"name", name}, {"arguments", std::move(args)}};
    if (!meta.is_null()) params["_meta"] = std::move(meta);
    peer.Write(LineFramer::Encode(rpc::Dump(rpc::MakeRequest(id, mcp::kToolsCall, std::move(params)))));
  }

  // Pumps until the last message `peer` got is the reply to request `id`.
  bool AwaitReply(Peer& peer, int id) {
    return PumpUntil([&] { return !peer.inbox.empty() && peer.inbox.back().value("id", 0) == id; });
  }

  Json CallTool(Peer& peer, std::string_view name, Json args = Json::object()) {
    return Call(peer, mcp::kToolsCall, {{"name", name}, {"arguments", std::move(args)}})["result"];
  }

  // A request from the extension (the popup's, the surface's); pumps until the host answers it.
  Json ExtCall(std::string_view method, Json params) {
    const int id = next_ext_call_id_++;
    SendExt(rpc::MakeRequest(id, method, std::move(params)));
    Json answer;
    EXPECT_TRUE(PumpUntil([&] {
      for (const auto& m : ext_.inbox) {
        if (!m.contains("method") && m.value("id", 0) == id) return answer = m, true;
      }
      return false;
    })) << "no answer to "
        << method;
    return answer;
  }

  // Waits for the extension to receive a request for `method`; returns it.
  Json ExtRequest(std::string_view method) {
    Json request;
    EXPECT_TRUE(PumpUntil([&] {
      for (const auto& m : ext_.inbox) {
        if (m.value("method", "") == method && m.contains("id") && !answered_.contains(m["id"].get<std::int64_t>())) {
          answered_.insert(m["id"].get<std::int64_t>());
          return request = m, true;
        }
      }
      return false;
    })) << "the extension never got "
        << method;
    return request;
  }

  std::uint64_t settle_ms_ = kNavigationSettleMs;  // set before StartHost to change it
  std::string policy_path_, audit_path_;           // likewise: none by default
  std::uint64_t policy_poll_ms_ = kPolicyPollMs;
  std::uint64_t grant_ask_ms_ = kGrantAskTimeoutMs;
  int next_ext_call_id_ = 7000;  // ExtCall's request ids
  bool headless_ = true;         // Hello's browser.headless: false, a person can answer at the browser
  uv_loop_t loop_{};
  std::string root_, dir_;
  Peer ext_;
  std::unique_ptr<Host> host_;
  std::vector<Peer*> peers_;
  std::vector<std::unique_ptr<Peer>> owned_;
  std::set<std::int64_t> answered_;
  int next_id_ = 1;
};

}  // namespace tb::testing_host
