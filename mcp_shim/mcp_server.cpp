#include "mcp_shim/mcp_server.h"

#include <algorithm>
#include <array>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "common/argument_order.h"
#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "mcp_shim/client_roots.h"
#include "mcp_shim/upload_files.h"

namespace tb {
namespace {

constexpr std::array<std::string_view, 8> kLogLevels = {"debug", "info",     "notice", "warning",
                                                        "error", "critical", "alert",  "emergency"};

int LevelIndex(std::string_view level) {
  const auto it = std::ranges::find(kLogLevels, level);
  return it == kLogLevels.end() ? -1 : static_cast<int>(it - kLogLevels.begin());
}

// MCP: a progress token is a string or an integer; anything else is ignored.
Json ProgressToken(const Json& params) {
  Json token = field::Any(field::Object(params, "_meta"), "progressToken");
  return token.is_string() || token.is_number_integer() ? token : Json();
}

// The members a 2026-07-28 result gets before what its producer wrote (the
// host writes none of them). A tool list follows the browser, so it is stale
// at once (ttlMs 0) and the user's own (private); list_changed says when.
constexpr std::string_view kCompleteMembers = R"("resultType":"complete")";
constexpr std::string_view kCacheableMembers = R"("cacheScope":"private","resultType":"complete","ttlMs":0)";

bool Contains(const auto& versions, std::string_view version) {
  return std::ranges::find(versions, version) != std::end(versions);
}

Json VersionArray(const auto& versions) {
  Json out = Json::array();
  for (const std::string_view v : versions) out.push_back(v);
  return out;
}

std::string MetaKey(std::string_view key) { return "params._meta[\"" + std::string(key) + "\"]"; }

// Whether a request is served as 2026-07-28: its _meta names that revision
// (and then must carry the rest of the envelope). Without a revision there it
// is a 2025 request, and so is one naming a revision initialize negotiates.
std::expected<bool, rpc::Error> IsStateless(const Json& params) {
  const Json* meta = field::Find(params, "_meta");
  if (meta == nullptr || meta->is_null()) return false;
  if (!meta->is_object()) return std::unexpected(rpc::InvalidParams("params._meta must be an object"));
  const Json* version = field::Find(*meta, mcp::kMetaProtocolVersion);
  if (version == nullptr) return false;
  if (!version->is_string())
    return std::unexpected(rpc::InvalidParams(MetaKey(mcp::kMetaProtocolVersion) + " must be a string"));
  const std::string& requested = version->get_ref<const std::string&>();
  if (Contains(mcp::kInitializeVersions, requested)) return false;
  if (!Contains(mcp::kStatelessVersions, requested)) {
    return std::unexpected(
        rpc::Error{mcp::kUnsupportedProtocolVersion,
                   "Unsupported protocol version " + requested + " (supported: " + mcp::ProtocolVersionList() + ")",
                   {{"supported", VersionArray(mcp::kProtocolVersions)}, {"requested", requested}}});
  }
  const Json* caps = field::Find(*meta, mcp::kMetaClientCapabilities);
  if (caps == nullptr) {
    return std::unexpected(rpc::InvalidParams(MetaKey(mcp::kMetaClientCapabilities) +
                                              " (an object) is required on every " + requested + " request"));
  }
  if (!caps->is_object())
    return std::unexpected(rpc::InvalidParams(MetaKey(mcp::kMetaClientCapabilities) + " must be an object"));
  if (const Json* info = field::Find(*meta, mcp::kMetaClientInfo); info != nullptr && !info->is_object()) {
    return std::unexpected(rpc::InvalidParams(MetaKey(mcp::kMetaClientInfo) + " must be an object"));
  }
  if (const Json* level = field::Find(*meta, mcp::kMetaLogLevel);
      level != nullptr && (!level->is_string() || LevelIndex(level->get_ref<const std::string&>()) < 0)) {
    return std::unexpected(
        rpc::InvalidParams(MetaKey(mcp::kMetaLogLevel) +
                           " must be one of debug, info, notice, warning, error, critical, alert, emergency"));
  }
  return true;
}

// subscriptions/listen's filter: each field absent or of its type.
std::expected<bool, rpc::Error> ToolsListChangedWanted(const Json& params) {
  const Json* filter = field::Find(params, "notifications");
  if (filter == nullptr || !filter->is_object()) {
    return std::unexpected(rpc::InvalidParams("subscriptions/listen needs params.notifications (an object)"));
  }
  for (const char* flag : {"toolsListChanged", "promptsListChanged", "resourcesListChanged"}) {
    if (const Json* v = field::Find(*filter, flag); v != nullptr && !v->is_boolean()) {
      return std::unexpected(
          rpc::InvalidParams(std::string("subscriptions/listen: notifications.") + flag + " must be a boolean"));
    }
  }
  if (const Json* uris = field::Find(*filter, "resourceSubscriptions");
      uris != nullptr &&
      !(uris->is_array() && std::ranges::all_of(*uris, [](const Json& u) { return u.is_string(); }))) {
    return std::unexpected(
        rpc::InvalidParams("subscriptions/listen: notifications.resourceSubscriptions must be an array of strings"));
  }
  return filter->value("toolsListChanged", false);
}

constexpr std::string_view kInstructions =
    "Drives the user's real browser. Call connect_browser, then open_tab or list_tabs + focus_tab; "
    "the focused tab's tools then appear. The tool list follows the browser's state.";

}  // namespace

McpServer::McpServer(uv_loop_t* loop, std::unique_ptr<Transport> client, SessionOptions options)
    : loop_(loop),
      client_(std::move(client)),
      recovery_(loop, {.hello_params = [this] { return HelloParams(); },
                       .attach = [this](std::unique_ptr<HostLink> link) { AttachHost(std::move(link)); },
                       .link = [this] { return host_.get(); },
                       .settled = [this] { OnRecoverySettled(); }}),
      options_(std::move(options)),
      roots_(loop, [this](const Json& message) { Send(message); }),
      grants_(loop, [this](const Json& message) { Send(message); }),
      catch_up_(loop, kListCatchUpMs, [this](std::string text) { client_->Send(std::move(text)); }) {}

McpServer::~McpServer() {
  if (host_) host_->SetCallbacks({});
}

void McpServer::Start() {
  client_->Start({.on_message = [this](std::string text) { OnMessage(std::move(text)); },
                  .on_close =
                      [this](std::string_view reason) {
                        spdlog::info("client gone ({}); exiting", reason);
                        Shutdown();
                      }});
}

void McpServer::Shutdown() {
  connecting_.reset();
  catch_up_.Close();
  roots_.Close();
  grants_.Close();
  if (host_) {
    host_->SetCallbacks({});
    host_->Close();
  }
  client_->Close();
  recovery_.Close();
  waiting_.clear();
}

void McpServer::Send(const Json& message) { client_->Send(rpc::Dump(message)); }

void McpServer::Reply(const std::string& key, Json message) {
  const auto it = pending_.find(key);
  if (it == pending_.end()) return;  // cancelled: no answer (MCP cancellation)
  const ResultShape shape = it->second.shape;
  const std::string method = std::move(it->second.method);
  pending_.erase(it);
  if (const auto result = message.find("result");
      shape != ResultShape::kAsIs && result != message.end() && result->is_object()) {
    if (!result->contains("resultType")) (*result)["resultType"] = "complete";
    if (shape == ResultShape::kCacheable) {
      (*result)["ttlMs"] = 0;
      (*result)["cacheScope"] = "private";
    }
  }
  Deliver(key, method, rpc::Dump(message));
}

void McpServer::Deliver(const std::string& key, const std::string& method, std::string text) {
  if (method == mcp::kToolsCall) return catch_up_.SendAnswer(key, std::move(text));
  client_->Send(std::move(text));
  if (method == mcp::kToolsList) catch_up_.OnListAnswered(key);
}

void McpServer::ReplyRaw(const std::string& key, const rpc::ResultPrefix& answer, const Json& id) {
  const auto it = pending_.find(key);
  if (it == pending_.end()) return;  // cancelled: no answer (MCP cancellation)
  const ResultShape shape = it->second.shape;
  if (shape == ResultShape::kAsIs) {
    const std::string method = std::move(it->second.method);
    pending_.erase(it);
    return Deliver(key, method, rpc::WithId(answer, id));
  }
  auto spliced =
      rpc::WithIdAndMembers(answer, id, shape == ResultShape::kCacheable ? kCacheableMembers : kCompleteMembers);
  if (spliced) {
    const std::string method = std::move(it->second.method);
    pending_.erase(it);
    return Deliver(key, method, std::move(*spliced));
  }
  // Not an object result: the slow way, so that it still gets its members or is sent as it is.
  Reply(key, rpc::MakeResult(id, Json::parse(rpc::WithId(answer, id))["result"]));
}

// A call of a page's own tool (or call_webmcp_tool) carries its arguments in
// the client's order too, as JSON text in _meta (kArgumentsTextMeta): Json
// sorts keys, and a page may read its arguments in order. Only the shim
// writes that key.
static void KeepArgumentOrder(std::string_view text, rpc::Message& msg) {
  if (msg.method != mcp::kToolsCall || !msg.params.is_object()) return;
  const auto meta = msg.params.find("_meta");
  if (meta != msg.params.end() && meta->is_object()) meta->erase(std::string(kArgumentsTextMeta));
  const std::string name = field::String(msg.params, "name").value_or("");
  if (tools::Find(name) != nullptr && name != tools::kCallWebMcpTool) return;  // ours do not need it
  auto ordered = rpc::ArgumentsInOrder(text);
  if (!ordered) return;
  if (meta == msg.params.end()) msg.params["_meta"] = Json::object();
  if (!msg.params["_meta"].is_object()) return;
  msg.params["_meta"][std::string(kArgumentsTextMeta)] = std::move(*ordered);
}

void McpServer::OnMessage(std::string text) {
  auto parsed = rpc::Parse(text);
  if (!parsed && parsed.error().response) {
    return spdlog::warn("malformed response from the client ignored: {}", parsed.error().error.message);
  }
  if (!parsed) return Send(rpc::MakeError(parsed.error().id, parsed.error().error));
  switch (parsed->kind) {
    case rpc::Kind::kRequest:
      KeepArgumentOrder(text, *parsed);
      // A dead browser being checked or started again: what needs it waits.
      if (recovery_.busy() && (parsed->method == mcp::kToolsCall || parsed->method == mcp::kToolsList)) {
        const std::string key = rpc::Dump(parsed->id);
        waiting_.push_back({key, [this, msg = std::move(*parsed)] { OnRequest(msg); }});
        return;
      }
      return OnRequest(*parsed);
    case rpc::Kind::kNotification:
      return OnNotification(*parsed);
    case rpc::Kind::kResponse:
      // The requests we send the client: roots/list and elicitation/create.
      if (!roots_.OnResponse(*parsed)) grants_.OnResponse(*parsed);
      return;
  }
}

void McpServer::OnNotification(const rpc::Message& msg) {
  if (msg.method == kRootsListChanged) return roots_.OnListChanged();
  if (msg.method != mcp::kCancelled || !msg.params.is_object()) return;
  const std::string key = rpc::Dump(field::Any(msg.params, "requestId"));
  std::erase_if(waiting_, [&key](const Waiting& w) { return w.key == key; });  // never runs
  catch_up_.Drop(key);                                                         // answered, not sent yet
  const auto it = pending_.find(key);
  if (it == pending_.end()) return;
  const std::int64_t host_id = it->second.host_id;
  pending_.erase(it);
  subscriptions_.erase(key);  // a listen stream ends with its cancel, unanswered
  if (key == connecting_key_ && connecting_) DeleteSoon(loop_, std::move(connecting_));
  if (host_id != 0 && host_) host_->Cancel(host_id);
}

void McpServer::OnRequest(const rpc::Message& msg) {
  const std::string key = rpc::Dump(msg.id);
  if (pending_.contains(key)) {
    return Send(rpc::MakeError(msg.id, rpc_error::kInvalidRequest, "request id " + key + " is already in use"));
  }
  pending_.emplace(key, Pending{.method = msg.method});
  const Json params = msg.params.is_null() ? Json::object() : msg.params;
  if (msg.method == mcp::kToolsList) {
    const bool calls_waiting =
        std::ranges::any_of(pending_, [](const auto& p) { return p.second.method == mcp::kToolsCall; });
    catch_up_.OnListAsked(key, calls_waiting);
  }

  if (msg.method == mcp::kInitialize) return OnInitialize(msg.id, params);
  const auto stateless = IsStateless(params);
  if (!stateless) return Reply(key, rpc::MakeError(msg.id, stateless.error()));
  if (*stateless) return OnStatelessRequest(msg, key, params);
  if (msg.method == mcp::kPing) return Reply(key, rpc::MakeResult(msg.id, Json::object()));
  if (msg.method == mcp::kSetLevel) {
    const int level = LevelIndex(field::String(params, "level").value_or(""));
    if (level < 0) return Reply(key, rpc::MakeError(msg.id, rpc_error::kInvalidParams, "unknown log level"));
    log_level_ = level;
    return Reply(key, rpc::MakeResult(msg.id, Json::object()));
  }
  if (msg.method == mcp::kToolsList) {
    if (host_) return Forward(msg.id, key, msg.method, params);
    return Reply(key, rpc::MakeResult(msg.id, DisconnectedTools()));
  }
  if (msg.method == mcp::kToolsCall) return OnToolsCall(msg.id, params);
  if (msg.method == mcp::kDiscover || msg.method == mcp::kListen) {
    return Reply(key,
                 rpc::MakeError(msg.id, rpc_error::kMethodNotFound,
                                "method not found: " + msg.method + " is a 2026-07-28 method; name that revision in " +
                                    MetaKey(mcp::kMetaProtocolVersion)));
  }
  Reply(key, rpc::MakeError(msg.id, rpc_error::kMethodNotFound, "method not found: " + msg.method));
}

// 2026-07-28: every request carries its revision, so each is served on its
// own; no ping or logging/setLevel, and nothing unasked for is sent.
void McpServer::OnStatelessRequest(const rpc::Message& msg, const std::string& key, const Json& params) {
  stateless_seen_ = true;
  const Json& meta = *field::Find(params, "_meta");
  // The host's hello names the client: the one that connects it is the one to name.
  if (const Json* info = field::Find(meta, mcp::kMetaClientInfo); info != nullptr) {
    client_info_ = *info;
    catch_up_.SetClientName(field::String(*info, "name").value_or(""));
  }
  Pending& pending = pending_[key];
  pending.shape = ResultShape::kComplete;
  if (msg.method == mcp::kDiscover) {
    return Reply(key, rpc::MakeResult(
                          msg.id, {{"supportedVersions", VersionArray(mcp::kProtocolVersions)},
                                   {"capabilities", {{"tools", {{"listChanged", true}}}}},
                                   {"instructions", kInstructions},
                                   {"_meta", {{mcp::kMetaServerInfo, {{"name", "tabbridge"}, {"version", kVersion}}}}},
                                   // What this process speaks does not change while it runs.
                                   {"ttlMs", 3'600'000},
                                   {"cacheScope", "public"}}));
  }
  if (msg.method == mcp::kListen) return OnListen(msg.id, key, params);
  if (msg.method == mcp::kToolsList) {
    pending.shape = ResultShape::kCacheable;
    if (host_) return Forward(msg.id, key, msg.method, params);
    return Reply(key, rpc::MakeResult(msg.id, DisconnectedTools()));
  }
  if (msg.method == mcp::kToolsCall) return OnToolsCall(msg.id, params);
  const bool removed = msg.method == mcp::kPing || msg.method == mcp::kSetLevel;
  Reply(key, rpc::MakeError(msg.id, rpc_error::kMethodNotFound,
                            "method not found: " + msg.method + (removed ? " (not part of 2026-07-28)" : "")));
}

// A long-lived request: acknowledged at once, then tools/list_changed goes to
// it, tagged with its id, until the client cancels it (and then no answer).
void McpServer::OnListen(const Json& id, const std::string& key, const Json& params) {
  const auto tools = ToolsListChangedWanted(params);
  if (!tools) return Reply(key, rpc::MakeError(id, tools.error()));
  Json honored = Json::object();  // we have no prompts or resources to report on
  if (*tools) honored["toolsListChanged"] = true;
  subscriptions_[key] = Subscription{.id = id, .tools_list_changed = *tools};
  if (*tools) catch_up_.SetSubscribed();
  Send(rpc::MakeNotification(mcp::kSubscriptionsAcknowledged,
                             {{"_meta", {{mcp::kMetaSubscriptionId, id}}}, {"notifications", std::move(honored)}}));
}

tools::Surface McpServer::surface() const {
  if (options_.surface) return *options_.surface;
  const std::string name = field::String(client_info_, "name").value_or("");
  return std::ranges::find(kToolDeferringClients, name) != std::end(kToolDeferringClients) ? tools::Surface::kDispatch
                                                                                           : tools::Surface::kState;
}

// connect_browser alone, or a stable surface's tools (a call of one says to connect first).
Json McpServer::DisconnectedTools() const {
  const tools::Surface shape = surface();
  if (tools::IsStable(shape)) return {{"tools", tools::StableTools(options_.caps, shape)}};
  Json tool = tools::Listed(*tools::Find(tools::kConnectBrowser));
  if (tools::PinsStateTools(shape)) tool = tools::Pinned(std::move(tool));
  return {{"tools", Json::array({std::move(tool)})}};
}

void McpServer::NotifyToolsChanged() {
  ++list_changes_;
  bool told = false;
  // A 2025 client (or one that has not said which it is) gets it unasked.
  if (initialized_ || !stateless_seen_) {
    Send(rpc::MakeNotification(mcp::kToolsListChanged, nullptr));
    told = true;
  }
  for (const auto& [key, subscription] : subscriptions_) {
    if (!subscription.tools_list_changed) continue;
    Send(rpc::MakeNotification(mcp::kToolsListChanged, {{"_meta", {{mcp::kMetaSubscriptionId, subscription.id}}}}));
    told = true;
  }
  if (told) catch_up_.OnNotified();
}

void McpServer::OnInitialize(const Json& id, const Json& params) {
  if (!field::AbsentOrString(params, "protocolVersion")) {
    return Reply(rpc::Dump(id),
                 rpc::MakeError(id, rpc_error::kInvalidParams, "initialize: protocolVersion must be a string"));
  }
  const std::string requested = field::String(params, "protocolVersion").value_or("");
  // 2026-07-28 is not chosen by initialize: a client asking for it gets the newest that is.
  const bool known = Contains(mcp::kInitializeVersions, requested);
  if (const Json* info = field::Find(params, "clientInfo"); info != nullptr && info->is_object()) {
    client_info_ = *info;
    catch_up_.SetClientName(field::String(*info, "name").value_or(""));
  }
  roots_.SetDeclared(field::Any(field::Object(params, "capabilities"), "roots").is_object());
  grants_.SetDeclared(field::Any(field::Object(params, "capabilities"), "elicitation"));
  initialized_ = true;
  Reply(rpc::Dump(id),
        rpc::MakeResult(id, {{"protocolVersion", known ? requested : mcp::kInitializeVersions[0]},
                             {"capabilities", {{"tools", {{"listChanged", true}}}, {"logging", Json::object()}}},
                             {"serverInfo", {{"name", "tabbridge"}, {"version", kVersion}}},
                             {"instructions", kInstructions}}));
}

void McpServer::OnToolsCall(const Json& id, const Json& params) {
  const std::string key = rpc::Dump(id);
  const auto name_field = field::String(params, "name");
  if (!name_field)
    return Reply(key, rpc::MakeError(id, rpc_error::kInvalidParams, "tools/call needs params.name (a string)"));
  const std::string& name = *name_field;
  if (!host_ && recovery_.CanRestart()) {
    // The browser this shim launched is gone: this call starts it again, then runs.
    recovery_.Restart();
    waiting_.push_back({key, [this, id, params] { OnToolsCall(id, params); }});
    return;
  }
  if (name == tools::kConnectBrowser) {
    if (host_ && recovery_.HasNote()) {
      // Started again since the last answer: that is this call's news.
      return Reply(key, rpc::MakeResult(id, tools::Result({{"connected", true},
                                                           {"browser", field::Object(host_->hello(), "browser")},
                                                           {"restarted", recovery_.TakeNote()}})));
    }
    if (host_) {
      const std::string browser =
          field::String(field::Object(host_->hello(), "browser"), "name").value_or("the browser");
      return Reply(key,
                   rpc::MakeResult(id, tools::ErrorResult("already connected to " + browser + " — call list_tabs")));
    }
    const Json* given = field::Find(params, "arguments");
    const Json args = given == nullptr || given->is_null() ? Json::object() : *given;
    if (auto ok = tools::CheckArguments(*tools::Find(name), args); !ok) {
      return Reply(key, rpc::MakeResult(id, tools::ErrorResult(name + ": " + ok.error())));
    }
    return ConnectBrowser(id, key, args, ProgressToken(params));
  }
  if (!host_ && name == tools::kOpenTab && tools::IsStable(surface())) {
    // Listed before any browser is: opening a page connects first (a running
    // browser, else one started as connect_browser {launch: true} does), one
    // call and one model turn instead of two.
    return ConnectBrowser(id, key, {{"launch", true}}, ProgressToken(params), [this, id, key, params](Json connected) {
      const Json browser = field::Object(field::Object(connected, "structuredContent"), "browser");
      std::string note = "connected first to " + field::String(browser, "name").value_or("the browser") + " " +
                         field::String(browser, "version").value_or("");
      if (field::Bool(field::Object(connected, "structuredContent"), "launched").value_or(false)) {
        note += " (started by tabbridge)";
      }
      if (!pending_.contains(key)) return;  // cancelled meanwhile
      Forward(id, key, mcp::kToolsCall.data(), params, true, std::move(note));
    });
  }
  if (host_ && name == tools::kUploadFile) return ForwardUpload(id, key, params);
  if (host_) return Forward(id, key, mcp::kToolsCall.data(), params);
  if (tools::Find(name) != nullptr) {
    const std::string lost = recovery_.LostNote();
    return Reply(key, rpc::MakeResult(id, tools::ErrorResult(name + ": not connected to a browser — " +
                                                             (lost.empty() ? "call connect_browser first" : lost))));
  }
  Reply(key, rpc::MakeError(id, rpc_error::kInvalidParams, "Unknown tool: " + name));
}

// upload_file goes on with the files' bytes, read here (upload_files.h), in
// _meta where the host looks for them; a call the host will refuse anyway
// (no `upload` capability, read-only, bad arguments) reads nothing. The
// files come from the upload roots: the client's, asked first when it has
// them and they are not known yet.
void McpServer::ForwardUpload(const Json& id, const std::string& key, Json params) {
  if (const auto meta = params.find("_meta"); meta != params.end() && meta->is_object()) {
    meta->erase(std::string(kUploadFilesMeta));  // only what this shim read goes under that key
  }
  const Json* args = field::Find(params, "arguments");
  const bool reads = Contains(options_.caps, tools::kCapUpload) && !options_.read_only && args != nullptr &&
                     tools::CheckArguments(*tools::Find(tools::kUploadFile), *args).has_value();
  if (!reads) return Forward(id, key, mcp::kToolsCall.data(), std::move(params));
  if (initialized_ && roots_.declared() && !roots_.known()) {
    return roots_.WhenKnown([this, id, key, params = std::move(params)]() mutable {
      if (!pending_.contains(key)) return;  // cancelled meanwhile
      if (!host_)
        return Reply(key, rpc::MakeResult(id, tools::ErrorResult(std::string(tools::kBrowserConnectionLost))));
      ReadAndForwardUpload(id, key, std::move(params));
    });
  }
  ReadAndForwardUpload(id, key, std::move(params));
}

void McpServer::ReadAndForwardUpload(const Json& id, const std::string& key, Json params) {
  std::error_code ec;
  const std::string cwd = std::filesystem::current_path(ec).string();
  const bool client_roots = initialized_ && roots_.declared();
  UploadScope scope = MakeUploadScope(roots_.paths(), client_roots, options_.upload_roots, ec ? std::string("/") : cwd);
  if (client_roots && !roots_.note().empty()) scope.note = roots_.note();
  auto files = ReadUploadFiles(params["arguments"]["paths"], scope);
  if (!files) return Reply(key, rpc::MakeResult(id, tools::ErrorResult("upload_file: " + files.error())));
  if (!params["_meta"].is_object()) params["_meta"] = Json::object();
  params["_meta"][std::string(kUploadFilesMeta)] = std::move(*files);
  Forward(id, key, mcp::kToolsCall.data(), std::move(params));
}

void McpServer::Forward(const Json& id, const std::string& key, const std::string& method, Json params, bool may_ask,
                        std::string note) {
  // The first call answered after a restart says so (its answer is parsed for that).
  if (const std::string restarted = method == mcp::kToolsCall ? recovery_.TakeNote() : ""; !restarted.empty()) {
    note = note.empty() ? restarted : note + "; " + restarted;
  }
  // A client that can be asked: the answer is parsed to find a question in it.
  const bool asks = may_ask && method == mcp::kToolsCall && initialized_ && grants_.declared();
  Json retry = asks ? params : Json();
  PendingCalls::RawReply raw;
  // A success answer goes to the client as the host wrote it, under the
  // client's id: no parse and no re-serialisation per answer.
  if (note.empty() && !asks) {
    raw = [this, id, key](const rpc::ResultPrefix& answer) {
      recovery_.OnAnswered();
      ReplyRaw(key, answer, id);
    };
  }
  const std::int64_t host_id = host_->Request(
      method, std::move(params), kDefaultHostDeadlineMs,
      [this, id, key, method, note, retry = std::move(retry)](std::expected<Json, rpc::Error> outcome) mutable {
        if (outcome && !retry.is_null()) {
          if (const auto question = ClientGrants::AskedIn(*outcome)) {
            return AskClientThenRetry(id, key, std::move(retry), *question, std::move(*outcome));
          }
        }
        if (outcome) {
          recovery_.OnAnswered();
          if (!note.empty() && outcome->is_object() && outcome->contains("content")) {
            tools::AddToResult(*outcome, "note", note, "Note: " + note + ".");
          }
          return Reply(key, rpc::MakeResult(id, std::move(*outcome)));
        }
        const rpc::Error& error = outcome.error();
        if (error.code == rpc_error::kPeerGone || error.code == rpc_error::kTimeout) {
          if (method == mcp::kToolsList) {
            return Reply(key, rpc::MakeResult(id, DisconnectedTools()));
          }
          std::string what = error.code == rpc_error::kTimeout
                                 ? "the browser did not answer in time — call connect_browser, then retry"
                                 : std::string(tools::kBrowserConnectionLost);
          if (error.code == rpc_error::kPeerGone && recovery_.ours()) {
            what =
                "the browser connection was lost — if the browser tabbridge launched crashed, tabbridge starts it "
                "again with this session's tabs: call again (or connect_browser, if the answer is that none is "
                "connected); whether this call did anything is unknown";
          }
          return Reply(key, rpc::MakeResult(id, tools::ErrorResult(what)));
        }
        Reply(key, rpc::MakeError(id, error));
      },
      std::move(raw));
  if (auto it = pending_.find(key); it != pending_.end()) it->second.host_id = host_id;
}

void McpServer::AskClientThenRetry(const Json& id, const std::string& key, Json params,
                                   const ClientGrants::Question& question, Json denial) {
  // Answered while this call was on its way: the host decides it with that answer.
  if (grants_.Answered(question)) return Forward(id, key, mcp::kToolsCall.data(), std::move(params), false);
  grants_.Ask(question, [this, id, key, params = std::move(params), question,
                         denial = std::move(denial)](std::optional<std::string> choice) mutable {
    if (!pending_.contains(key)) return;  // cancelled meanwhile
    if (!choice || !host_) return Reply(key, rpc::MakeResult(id, std::move(denial)));
    host_->Request(
        shim_method::kGrant, {{"site", question.site}, {"access", question.access}, {"choice", *choice}},
        kDefaultExtensionDeadlineMs,
        [this, id, key, params = std::move(params), denial](std::expected<Json, rpc::Error> granted) mutable {
          if (!pending_.contains(key)) return;
          // -32002: answered already (another call of the site shared the
          // question): the host decides the call with that answer.
          const bool answered = !granted && granted.error().code == rpc_error::kInvalidArgument;
          if ((!granted && !answered) || !host_) {
            if (!granted) spdlog::warn("tabbridge/grant: {}", granted.error().message);
            return Reply(key, rpc::MakeResult(id, std::move(denial)));
          }
          // Allowed or denied now: the host answers the call itself this time.
          Forward(id, key, mcp::kToolsCall.data(), std::move(params), /*may_ask=*/false);
        });
  });
}

void McpServer::OnHostNotification(const std::string& method, const Json& params) {
  if (method == mcp::kToolsListChanged) return NotifyToolsChanged();
  if (method == shim_method::kSessionTabs) return recovery_.OnTabs(params);
  if (method == shim_method::kUserDisconnected) return recovery_.OnUserDisconnected();
  if (method == mcp::kMessage) {
    // 2026-07-28 sends log messages only for a request that asked (logLevel);
    // these belong to no request.
    if (stateless_seen_ && !initialized_) return;
    const int level = LevelIndex(field::String(params, "level").value_or("info"));
    if (level < log_level_) return;
  } else if (method != mcp::kProgress) {
    return;  // the host relays nothing else to clients
  }
  Send(rpc::MakeNotification(method, params));
}

}  // namespace tb
