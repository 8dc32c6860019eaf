#include "tests/fake_extension/fake_extension.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/protocol.h"
#include "common/socket_dir.h"
#include "tests/fake_extension/dir_watch.h"
#include "tests/fake_extension/line_channel.h"

namespace tb::fake {
namespace {

// Past this a frame from the host is nonsense (it may send at most 1 MiB, and
// we record rather than trust it): stop reading instead of allocating it.
constexpr std::uint32_t kInsaneFrame = 256 * 1024 * 1024;

Json Result(const Json& id, Json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

Json Error(const Json& id, int code, std::string message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", std::move(message)}}}};
}

Json Event(std::string_view method, Json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace

std::expected<std::unique_ptr<FakeExtension>, std::string> FakeExtension::Start(FakeExtensionOptions options) {
  ::signal(SIGPIPE, SIG_IGN);  // a host that died is a failed write, not our death
  SpawnOptions spawn;
  spawn.argv = options.launcher;
  spawn.argv.insert(spawn.argv.end(), {options.host_binary, "chrome-extension://" + std::string(kExtensionId) + "/"});
  spawn.env = options.env;
  spawn.env.emplace_back("TABBRIDGE_SOCKET_DIR", options.socket_dir);
  spawn.stderr_path = options.stderr_path;
  auto process = ChildProcess::Spawn(spawn);
  if (!process) return std::unexpected(process.error());

  auto fake = std::unique_ptr<FakeExtension>(new FakeExtension(std::move(options)));
  fake->process_ = std::move(*process);
  for (int i = 1; i <= fake->options_.tabs; ++i) {
    fake->tabs_[i] = MakeTab(i, "http://127.0.0.1/tab-" + std::to_string(i), i == 1);
  }
  std::int64_t next = fake->options_.tabs + 1;
  for (const auto& url : fake->options_.more_tab_urls) fake->tabs_[next] = MakeTab(next, url, false), ++next;
  fake->reader_ = std::thread([raw = fake.get()] { raw->ReadLoop(); });
  if (fake->options_.send_hello && !fake->SendHello()) return std::unexpected("the host did not take the hello");
  return fake;
}

FakeExtension::FakeExtension(FakeExtensionOptions options) : options_(std::move(options)) {}

FakeExtension::~FakeExtension() {
  CloseHostStdin();
  if (!process_->WaitExit(std::chrono::seconds(10))) {
    process_->Signal(SIGKILL);
    process_->WaitExit(std::chrono::seconds(10));
  }
  if (reader_.joinable()) reader_.join();  // the host's stdout is at EOF now
}

Json FakeExtension::MakeTab(std::int64_t id, std::string url, bool active) {
  return {{"id", id},
          {"windowId", 1},
          {"title", "Tab " + std::to_string(id)},
          {"url", std::move(url)},
          {"status", "complete"},
          {"active", active}};
}

std::string FakeExtension::SocketPath(int slot) const { return tb::SocketPath(options_.socket_dir, slot); }

bool FakeExtension::WaitForSocket(int slot, std::chrono::milliseconds timeout) const {
  const std::string path = SocketPath(slot);
  return WaitInDir(
      options_.socket_dir, [&] { return IsSocket(path); }, timeout);
}

// --- sending ---------------------------------------------------------------

bool FakeExtension::SendHello() {
  Json tabs = Json::array();
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, tab] : tabs_) tabs.push_back(tab);
  }
  return SendEvent(
      ext_event::kHello,
      {{"protocol", options_.protocol},
       {"browser", {{"name", "FakeChromium"}, {"version", "1.0.0"}, {"userAgent", "tabbridge-fake-extension"}}},
       {"extension", {{"id", kExtensionId}, {"version", kVersion}}},
       {"tabs", std::move(tabs)}});
}

bool FakeExtension::SendEvent(std::string_view method, Json params) {
  return SendMessage(Event(method, std::move(params)));
}

bool FakeExtension::SendMessage(const Json& message) { return SendFrame(message.dump()); }

bool FakeExtension::SendFrame(std::string_view payload) {
  const auto length = static_cast<std::uint32_t>(payload.size());
  std::string frame(sizeof(length), '\0');
  std::memcpy(frame.data(), &length, sizeof(length));  // native byte order, like Chrome
  frame.append(payload);
  return SendRaw(frame);
}

bool FakeExtension::SendRaw(std::string_view bytes) {
  std::lock_guard lock(write_mutex_);
  const int fd = process_->stdin_fd();
  if (fd < 0) return false;
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void FakeExtension::SetAnswering(bool answering) {
  std::lock_guard lock(mutex_);
  answering_ = answering;
}

// --- receiving --------------------------------------------------------------

void FakeExtension::ReadLoop() {
  std::string buffer;
  char chunk[256 * 1024];
  for (;;) {
    const ssize_t n = ::read(process_->stdout_fd(), chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buffer.append(chunk, static_cast<std::size_t>(n));
    std::size_t pos = 0;
    bool insane = false;
    while (buffer.size() - pos >= sizeof(std::uint32_t)) {
      std::uint32_t length = 0;
      std::memcpy(&length, buffer.data() + pos, sizeof(length));
      if (length > kInsaneFrame) {
        Violation("frame length " + std::to_string(length) + " is absurd; stopped reading");
        insane = true;
        break;
      }
      if (buffer.size() - pos - sizeof(length) < length) break;
      {
        std::lock_guard lock(mutex_);
        frame_lengths_.push_back(length);
      }
      OnFrame(buffer.substr(pos + sizeof(length), length));
      pos += sizeof(length) + length;
    }
    if (insane) break;
    buffer.erase(0, pos);
  }
  std::lock_guard lock(mutex_);
  host_eof_ = true;
  changed_.notify_all();
}

void FakeExtension::OnFrame(std::string payload) {
  if (payload.size() > kMaxFrameToExtension) {
    Violation("frame of " + std::to_string(payload.size()) + " bytes is over Chrome's 1 MiB limit");
  }
  Json message = Json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (!message.is_object()) return Violation("frame is not a JSON object: " + payload.substr(0, 200));
  if (message.value("method", "") != ext_method::kChunk) {
    if (chunks_.partial()) Violation("a frame arrived in the middle of a chunked message");
    return OnMessage(std::move(message), 1, payload.size());
  }
  std::string violation;
  const Json params = message.value("params", Json());
  const std::size_t count = params.is_object() ? params.value("count", std::size_t{0}) : 0;
  auto whole = chunks_.Push(params, &violation);
  if (!violation.empty()) Violation(violation);
  if (!whole) return;
  Json original = Json::parse(*whole, nullptr, /*allow_exceptions=*/false);
  if (!original.is_object()) return Violation("reassembled chunks are not a JSON object");
  OnMessage(std::move(original), count, whole->size());
}

void FakeExtension::OnMessage(Json message, std::size_t frames, std::size_t bytes) {
  const bool request = message.contains("id") && message.contains("method");
  bool answer = false;
  {
    std::lock_guard lock(mutex_);
    answer = request && answering_;
    messages_.push_back({message, frames, bytes});
    changed_.notify_all();
  }
  if (answer) Answer(message);
}

void FakeExtension::Answer(const Json& request) {
  const Json& id = request["id"];
  const std::string method = request.value("method", "");
  const Json params = request.value("params", Json::object());
  if (method == ext_method::kPing) {
    SendMessage(Result(id, Json::object()));
  } else if (method == ext_method::kTabsCreate) {
    if (!params.is_object() || !params.contains("url") || !params["url"].is_string()) {
      SendMessage(Error(id, rpc_error::kInvalidArgument, "tabs.create needs a url"));
      return;
    }
    Json tab;
    bool reused = false;
    {
      std::lock_guard lock(mutex_);
      // reuseTabId: the page goes into that tab while it shows about:blank (extension/worker/tabs.js).
      const Json reuse = params.value("reuseTabId", Json());
      const auto blank = reuse.is_number_integer() ? tabs_.find(reuse.get<std::int64_t>()) : tabs_.end();
      if (blank != tabs_.end() && blank->second.value("url", "") == "about:blank") {
        blank->second["url"] = params["url"];
        blank->second["status"] = "loading";
        tab = blank->second;
        reused = true;
      } else {
        const std::int64_t tab_id = next_tab_id_++;
        tab = MakeTab(tab_id, params["url"].get<std::string>(), params.value("active", false));
        tab["status"] = "loading";
        tabs_[tab_id] = tab;
      }
    }
    // Chrome fires onCreated (onUpdated) before chrome.tabs.create (update) resolves.
    SendEvent(reused ? ext_event::kTabUpdated : ext_event::kTabCreated, {{"tab", tab}});
    SendMessage(Result(id, {{"tab", tab}}));
  } else if (method == ext_method::kTabsClose) {
    const Json tab_id = params.is_object() ? params.value("tabId", Json()) : Json();
    bool found = false;
    if (tab_id.is_number_integer()) {
      std::lock_guard lock(mutex_);
      found = tabs_.erase(tab_id.get<std::int64_t>()) > 0;
    }
    if (!found) {
      SendMessage(Error(id, rpc_error::kTabNotFound, "No tab with id: " + tab_id.dump() + "."));
      return;
    }
    SendEvent(ext_event::kTabRemoved, {{"tabId", tab_id}});
    SendMessage(Result(id, {{"closed", true}}));
  } else if (method == ext_method::kTabsShow) {
    // The tab becomes the person's active tab: the one that was and it are reported, as Chrome's events do.
    const Json tab_id = params.is_object() ? params.value("tabId", Json()) : Json();
    std::vector<Json> changed;
    bool found = false;
    {
      std::lock_guard lock(mutex_);
      found = tab_id.is_number_integer() && tabs_.contains(tab_id.get<std::int64_t>());
      for (auto& [other, tab] : tabs_) {
        const bool active = found && other == tab_id.get<std::int64_t>();
        if (!found || tab.value("active", false) == active) continue;
        tab["active"] = active;
        changed.push_back(tab);
      }
    }
    if (!found) {
      SendMessage(Error(id, rpc_error::kTabNotFound, "No tab with id: " + tab_id.dump() + "."));
      return;
    }
    for (const auto& tab : changed) SendEvent(ext_event::kTabUpdated, {{"tab", tab}});
    SendMessage(Result(id, {{"shown", true}, {"windowId", 1}}));
  } else if (options_.answer_page_tools && method.starts_with(ext_method::kPagePrefix)) {
    const std::string text = "fake " + method + " of tab " + params.value("tabId", Json()).dump();
    // The fake's own words: no page text (an empty provenance, host/read_provenance.h).
    const Json no_page = {{std::string(ext_method::kReadMeta), Json::array()}};
    SendMessage(Result(id, {{"content", Json::array({{{"type", "text"}, {"text", text}, {"_meta", no_page}}})}}));
  } else {
    SendMessage(Error(id, rpc_error::kMethodNotFound, "unknown method " + method));
  }
}

void FakeExtension::Violation(std::string what) {
  std::lock_guard lock(mutex_);
  violations_.push_back(std::move(what));
  changed_.notify_all();
}

// --- queries -----------------------------------------------------------------

std::vector<Received> FakeExtension::messages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

std::size_t FakeExtension::message_count() const {
  std::lock_guard lock(mutex_);
  return messages_.size();
}

std::vector<std::uint32_t> FakeExtension::frame_lengths() const {
  std::lock_guard lock(mutex_);
  return frame_lengths_;
}

std::vector<std::string> FakeExtension::violations() const {
  std::lock_guard lock(mutex_);
  return violations_;
}

std::map<std::int64_t, Json> FakeExtension::tabs() const {
  std::lock_guard lock(mutex_);
  return tabs_;
}

std::optional<Received> FakeExtension::WaitForMessage(const std::function<bool(const Json&)>& match,
                                                      std::chrono::milliseconds timeout, std::size_t from) const {
  std::unique_lock lock(mutex_);
  std::optional<Received> found;
  changed_.wait_for(lock, timeout, [&] {
    for (std::size_t i = from; i < messages_.size(); ++i) {
      if (match(messages_[i].message)) {
        found = messages_[i];
        return true;
      }
    }
    from = messages_.size();
    return host_eof_;  // nothing more will come
  });
  return found;
}

std::optional<Received> FakeExtension::WaitForRequest(std::string_view method, std::chrono::milliseconds timeout,
                                                      std::size_t from) const {
  return WaitForMessage([&](const Json& m) { return m.contains("id") && m.value("method", "") == method; }, timeout,
                        from);
}

bool FakeExtension::WaitForHostEof(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return host_eof_; });
}

// --- the process ---------------------------------------------------------------

void FakeExtension::CloseHostStdin() {
  std::lock_guard lock(write_mutex_);
  process_->CloseStdin();
}

void FakeExtension::SignalHost(int signum) { process_->Signal(signum); }

std::optional<ExitStatus> FakeExtension::WaitHostExit(std::chrono::milliseconds timeout) {
  return process_->WaitExit(timeout);
}

}  // namespace tb::fake
