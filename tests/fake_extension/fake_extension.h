// Plays Chrome and the tabbridge extension for one tabbridge-host: spawns it
// with stdin/stdout on pipes (argv[1] the extension's origin, as Chrome does),
// says hello, answers the host's requests, reassembles its chunks, and
// records every frame and message it gets. Tests steer it: stop answering,
// send events or raw bytes, close or kill the host.
//
// One reader thread answers the host; the test's thread sends and waits.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/protocol.h"
#include "tests/fake_extension/child_process.h"
#include "tests/fake_extension/chunk_assembler.h"

namespace tb::fake {

using Json = nlohmann::json;

struct FakeExtensionOptions {
  std::string host_binary;
  std::string socket_dir;                                // the host's TABBRIDGE_SOCKET_DIR
  int tabs = 2;                                          // http tabs in the hello
  std::vector<std::string> more_tab_urls;                // then tabs with these URLs (about:blank…)
  bool send_hello = true;                                // false: the test sends it (or something else) itself
  int protocol = kExtensionProtocol;                     // the hello's protocol number
  std::vector<std::pair<std::string, std::string>> env;  // more host environment
  std::string stderr_path;                               // the host's stderr; empty inherits ours
  bool answer_page_tools = false;                        // page.<tool>: a text result naming tool and tab
  // Put before the host's argv: what starts it, as Chrome on Windows starts
  // hosts through `cmd.exe /d /s /c` (host_pid() is then the launcher's).
  std::vector<std::string> launcher;
};

// One message from the host, after reassembly.
struct Received {
  Json message;
  std::size_t frames = 1;  // > 1 when it came as chunks
  std::size_t bytes = 0;   // its JSON text
};

class FakeExtension {
 public:
  static std::expected<std::unique_ptr<FakeExtension>, std::string> Start(FakeExtensionOptions options);
  // Closes the host's stdin (the browser's port closing), waits for it to
  // exit (SIGKILL after a while) and stops the reader.
  ~FakeExtension();
  FakeExtension(const FakeExtension&) = delete;
  FakeExtension& operator=(const FakeExtension&) = delete;

  pid_t host_pid() const { return process_->pid(); }
  const std::string& socket_dir() const { return options_.socket_dir; }
  std::string SocketPath(int slot = 0) const;
  // Until browser-<slot>.sock is a socket in the socket dir.
  bool WaitForSocket(int slot, std::chrono::milliseconds timeout) const;

  // --- what we send the host ---
  bool SendHello();
  bool SendEvent(std::string_view method, Json params);
  bool SendMessage(const Json& message);
  // One native-messaging frame around `payload`.
  bool SendFrame(std::string_view payload);
  // Exactly these bytes, no framing (malformed frames).
  bool SendRaw(std::string_view bytes);
  // While false, requests are recorded but never answered (a hung browser).
  void SetAnswering(bool answering);

  // --- what the host sent us ---
  std::vector<Received> messages() const;
  std::size_t message_count() const;
  // Every frame's length prefix, in order, chunks included.
  std::vector<std::uint32_t> frame_lengths() const;
  // Protocol rules the host broke (bad chunks, unparsable frames...).
  std::vector<std::string> violations() const;
  // The first message at index >= `from` that `match` accepts.
  std::optional<Received> WaitForMessage(const std::function<bool(const Json&)>& match,
                                         std::chrono::milliseconds timeout, std::size_t from = 0) const;
  std::optional<Received> WaitForRequest(std::string_view method, std::chrono::milliseconds timeout,
                                         std::size_t from = 0) const;
  // True once the host closed its stdout (it is exiting).
  bool WaitForHostEof(std::chrono::milliseconds timeout) const;

  // The fake browser's tabs, by id.
  std::map<std::int64_t, Json> tabs() const;

  // --- the host process ---
  void CloseHostStdin();
  void SignalHost(int signum);
  std::optional<ExitStatus> WaitHostExit(std::chrono::milliseconds timeout);
  // Set once a WaitHostExit saw the host end.
  std::optional<ExitStatus> host_exit_status() const { return process_->exit_status(); }
  long HostPeakRssKb() const { return process_->PeakRssKb(); }

 private:
  explicit FakeExtension(FakeExtensionOptions options);
  void ReadLoop();
  void OnFrame(std::string payload);
  void OnMessage(Json message, std::size_t frames, std::size_t bytes);
  void Answer(const Json& request);
  void Violation(std::string what);
  static Json MakeTab(std::int64_t id, std::string url, bool active);

  FakeExtensionOptions options_;
  std::unique_ptr<ChildProcess> process_;
  std::thread reader_;
  std::mutex write_mutex_;  // one frame at a time on the host's stdin

  mutable std::mutex mutex_;  // everything below
  mutable std::condition_variable changed_;
  bool answering_ = true;
  bool host_eof_ = false;
  std::vector<Received> messages_;
  std::vector<std::uint32_t> frame_lengths_;
  std::vector<std::string> violations_;
  std::map<std::int64_t, Json> tabs_;
  std::int64_t next_tab_id_ = 1000;
  ChunkAssembler chunks_;  // reader thread only
};

}  // namespace tb::fake
