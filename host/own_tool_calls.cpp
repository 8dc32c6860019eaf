#include "host/own_tool_calls.h"

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include <unistd.h>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/policy.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/browser_flags.h"
#include "host/own_tool_names.h"
#include "host/page_calls.h"
#include "host/policy_checks.h"

namespace tb {
namespace {

// list_webmcp_tools leaves schemas out past this many bytes (name: one tool
// with its schema): 200 tools with large schemas must not flood the context.
constexpr std::size_t kMaxListingBytes = 48 * 1024;

std::set<std::string> Reserved() {
  const auto& names = tools::ReservedNames();
  return {names.begin(), names.end()};
}

// By the MCP name first (what the model was shown), then by the page's own:
// a page name that equals another tool's MCP name must not shadow it.
const own_tools::Offered* FindOffered(const std::vector<own_tools::Offered>& offered, const std::string& name) {
  for (const auto& o : offered) {
    if (o.mcp_name == name) return &o;
  }
  for (const auto& o : offered) {
    if (o.tool->name == name) return &o;
  }
  return nullptr;
}

// The site as the policy names it ("127.0.0.1:8000", "mail.example.com"):
// a call of the page's own tools stays on one.
std::string SiteName(const std::string& url) {
  const auto site = policy::SiteOf(url);
  return site ? site->Describe() : url;
}

}  // namespace

OwnToolCalls::OwnToolCalls(Parts parts) : parts_(parts), parked_timer_(parts.loop) {}

void OwnToolCalls::Close() {
  parked_timer_.Stop();
  for (auto& parked : std::exchange(parked_calls_, {})) parked.reply(tools::ErrorResult(tools::kBrowserConnectionLost));
}

void OwnToolCalls::OnOwnTools(const Json& params) {
  auto event = own_tools::ParseOwnToolsEvent(params);
  if (!event) return spdlog::warn("malformed owntools.changed event ignored: {}", event.error());
  parts_.own_tools.NoteRuntime(event->set);
  if (parts_.tabs.Find(event->tab_id) == nullptr) return;  // closed meanwhile, or not a page the agent sees
  parts_.own_tools.Report(event->tab_id, std::move(event->set), event->settled);
}

std::string OwnToolCalls::WebMcpStatus() const {
  const std::string& seen = parts_.own_tools.runtime_seen();
  if (seen == "native" || EnablesWebMcp(CommandLineOf(parts_.browser_pid))) return "native";
  return seen.empty() ? "unknown" : seen;
}

std::string OwnToolCalls::FocusedDocument(const Session& session) const {
  const auto focus = session.focused_tab();
  if (!focus) return {};
  // A crashed page's document is gone, as after a navigation: its tools going is news.
  if (const Tab* tab = parts_.tabs.Find(*focus); tab != nullptr && tab->crashed) return {};
  // The document whose tools are listed (the old page's while a navigation
  // settles); a page without tools left, the one that last reported.
  if (const own_tools::OwnToolSet* set = parts_.own_tools.Find(*focus)) return set->document_id;
  return parts_.own_tools.DocumentOf(*focus);
}

std::optional<std::size_t> OwnToolCalls::PageIndex(std::int64_t tab_id) const {
  std::size_t index = 0;
  for (const Tab* tab : parts_.tabs.Visible()) {
    if (tab->id == tab_id) return index;
    ++index;
  }
  return std::nullopt;
}

std::vector<own_tools::Offered> OwnToolCalls::OfferedTo(const Session& session, For purpose) const {
  const auto focus = session.focused_tab();
  if (!focus) return {};
  const own_tools::OwnToolSet* set = parts_.own_tools.Find(*focus);
  const auto index = PageIndex(*focus);
  if (set == nullptr || !index) return {};
  // Seeing the page's tools is `read`; calling them, `act` too — or acting
  // there left to the person: the call asks them (its text is the page's,
  // which reading was granted for).
  if (purpose != For::kAnyway) {
    if (!MayOnFocused(parts_.tabs, parts_.policy, session, policy::Cap::kRead) ||
        !parts_.policy.Allows(session, policy::Cap::kRead, set->url))
      return {};
    if (purpose == For::kCalling &&
        (!ListsOnFocused(parts_.tabs, parts_.policy, session, policy::Cap::kAct) ||
         parts_.policy.Check(session, policy::Cap::kAct, set->url) == PolicyGate::Verdict::kDenied)) {
      return {};
    }
  }
  return own_tools::Offer(*set, *index, Reserved(), session.lists_own_tools());
}

OwnToolCalls::Listing OwnToolCalls::Listed(const Session& session) const {
  Listing listing;
  auto offered = OfferedTo(session);
  // list_webmcp_tools and call_webmcp_tool only where the page has tools of
  // its own that this list leaves out (over its budget, a schema too large,
  // --disable-webmcp-auto-register): elsewhere tools/list already has all
  // there is, and they would be bytes for nothing. A call to them works on
  // any page.
  listing.helpers = std::ranges::any_of(offered, [](const own_tools::Offered& o) { return !o.listed; });
  for (auto& own : offered) {
    if (own.listed) listing.tools.push_back(std::move(own.mcp_tool));  // the page's schema, as it gave it
  }
  return listing;
}

std::string OwnToolCalls::OwnToolNamesNow(const Session& session) const {
  if (const auto focus = session.focused_tab(); focus && parts_.own_tools.Settling(*focus)) {
    return "not known yet (the new page is loading — call list_webmcp_tools in a moment)";
  }
  const auto offered = OfferedTo(session);
  if (offered.empty()) return "none";
  std::string names;
  for (std::size_t i = 0; i < offered.size() && i < 20; ++i) names += (i ? ", " : "") + offered[i].mcp_name;
  if (offered.size() > 20) names += ", … (" + std::to_string(offered.size()) + " in all)";
  return names;
}

std::optional<Session::ShownPage> OwnToolCalls::ShownPage(const Session& session, bool listed_only) const {
  const auto focus = session.focused_tab();
  const own_tools::OwnToolSet* set = focus ? parts_.own_tools.Find(*focus) : nullptr;
  if (set == nullptr) return std::nullopt;
  const auto offered = OfferedTo(session, For::kSeeing);
  if (offered.empty()) return std::nullopt;
  if (listed_only && std::ranges::none_of(offered, [](const own_tools::Offered& o) { return o.listed; })) {
    return std::nullopt;
  }
  return Session::ShownPage{.document_id = set->document_id, .url = set->url, .answered_url = {}};
}

std::optional<Session::ShownPage> OwnToolCalls::CalledFor(const Session& session,
                                                          std::optional<Session::ShownPage> given) const {
  if (given) return given;
  auto page = session.shown_page() ? session.shown_page() : ShownPage(session);
  if (!page && session.answered_url().empty()) return std::nullopt;
  if (!page) page.emplace();
  page->answered_url = session.answered_url();
  return page;
}

std::optional<Json> OwnToolCalls::OtherSiteAnswer(Session& session, const std::string& name,
                                                  const std::optional<Session::ShownPage>& shown) {
  auto now = ShownPage(session);
  if (!shown || !now) return std::nullopt;
  // Issue 29: a page sent the tab to another site with a tool of the same
  // name; the arguments were made for the first one. The model decides.
  const std::string site = SiteName(now->url);
  const bool listed_elsewhere = !shown->url.empty() && SiteName(shown->url) != site;
  const bool answered_elsewhere = !shown->answered_url.empty() && SiteName(shown->answered_url) != site;
  if (!listed_elsewhere && !answered_elsewhere) return std::nullopt;
  session.set_shown_page(std::move(now));
  session.TellRemovals();
  return tools::ErrorResult(name + ": the page changed to " + site + ": call again if you mean " + site +
                            " — nothing was done; its tools: " + OwnToolNamesNow(session) +
                            " (list_webmcp_tools shows them with their schemas)");
}

bool OwnToolCalls::CallOwnTool(Session& session, const ToolCall& call, Reply& reply,
                               std::optional<Session::ShownPage> shown) {
  const std::string& name = call.name;
  // The page the model had the list of when it made the call (a parked call keeps it).
  shown = CalledFor(session, std::move(shown));
  const auto unfiltered = OfferedTo(session, For::kAnyway);
  const auto* known = FindOffered(unfiltered, name);
  const bool own =
      (known != nullptr && known->mcp_name == name) || session.was_told(name) || name.starts_with("webmcp_");
  if (!own) return false;
  // The focused tab's new page does not offer it (yet): decide the call there
  // (its policy, its tools) once it does, or its settle time is over.
  if (WaitsForNewPage(session, name)) {
    ParkForNewPage(
        session, call.key, name, std::move(reply), [this, call, shown](Session& s, const std::string& key, Reply r) {
          ToolCall again = call;
          again.key = key;
          if (!CallOwnTool(s, again, r, shown)) {
            r(tools::ErrorResult(call.name + ": the page changed — its tools are now: " + OwnToolNamesNow(s) +
                                 " (list_webmcp_tools shows them with their schemas)"));
          }
        });
    return true;
  }
  // The page's own tools are `act` on the focused tab (tools::OwnToolPolicy):
  // a name the page offers (or offered) on a tab the policy keeps from this
  // session gets the denial.
  parts_.gate.AdmitOwn(
      session, call,
      [this, shown](Session& s, const ToolCall& admitted, Reply r) { Admitted(s, admitted, std::move(r), shown); },
      std::move(reply));
  return true;
}

void OwnToolCalls::Admitted(Session& session, const ToolCall& call, Reply reply,
                            std::optional<Session::ShownPage> shown) {
  const std::string& name = call.name;
  const auto offered = OfferedTo(session);
  if (const auto* found = FindOffered(offered, name); found != nullptr && found->mcp_name == name) {
    if (auto other = OtherSiteAnswer(session, name, shown)) return reply(std::move(*other));
    return Run(session, call.key, *found, call.args, std::move(reply), shown);
  }
  // A name the session was given, or one shaped like a WebMCP tool's: the page
  // changed under the model. Say so, with what the page offers now.
  session.TellRemovals();  // the list the model has is out of date: now it hears
  reply(tools::ErrorResult(name + ": the page changed — its tools are now: " + OwnToolNamesNow(session) +
                           " (list_webmcp_tools shows them with their schemas)"));
}

void OwnToolCalls::ListWebMcpTools(Session& session, const ToolCall& call, Reply reply) {
  const Json& args = call.args;
  const auto focus = session.focused_tab();
  if (!focus || parts_.tabs.Find(*focus) == nullptr) {
    return reply(tools::ErrorResult("list_webmcp_tools: no tab is focused — call focus_tab or open_tab first"));
  }
  const auto offered = OfferedTo(session, For::kSeeing);
  const own_tools::OwnToolSet* set = parts_.own_tools.Find(*focus);
  // The previous page's list (a navigation settling) from a site this session may not read: none.
  if (set != nullptr && !parts_.policy.Allows(session, policy::Cap::kRead, set->url)) set = nullptr;
  const std::string only = field::String(args, "name").value_or("");
  Json list = Json::array();
  std::size_t bytes = 0;
  std::size_t listed = 0;
  bool schemas_left_out = false;
  for (const auto& o : offered) {
    if (o.listed) ++listed;
    if (!only.empty() && o.tool->name != only && o.mcp_name != only) continue;
    Json entry = {{"name", own_tools::CleanText(o.tool->name, 128)},
                  {"mcpName", o.listed ? Json(o.mcp_name) : Json(nullptr)},
                  {"callName", o.mcp_name},
                  {"source", o.tool->source},
                  {"description", o.tool->description},
                  {"readOnly", o.tool->read_only ? Json(*o.tool->read_only) : Json(nullptr)}};
    const std::size_t schema_bytes = rpc::Dump(o.tool->input_schema).size();
    if (!only.empty() || bytes + schema_bytes <= kMaxListingBytes) {
      entry["inputSchema"] = o.tool->input_schema;
      bytes += schema_bytes;
    } else {
      schemas_left_out = true;  // and the description as short as in tools/list
      entry["description"] = own_tools::CleanText(o.tool->description, kMaxListedDescriptionChars);
    }
    bytes += entry["description"].get_ref<const std::string&>().size();
    if (o.tool->schema_dropped) entry["schemaDropped"] = true;
    list.push_back(std::move(entry));
  }
  if (!only.empty() && list.empty()) {
    return reply(tools::ErrorResult("list_webmcp_tools: the page has no tool " + only +
                                    " — its tools: " + OwnToolNamesNow(session)));
  }
  const std::size_t total = set != nullptr ? set->total : 0;
  Json result = {{"untrusted", own_tools::kUntrustedListNote},
                 {"tabId", *focus},
                 {"url", set != nullptr ? set->url : parts_.tabs.Find(*focus)->url},
                 {"api", set != nullptr && !set->api.empty() ? Json(set->api) : Json(nullptr)},
                 {"total", total},
                 {"listed", listed},
                 {"omitted", total - listed},
                 {"tools", std::move(list)}};
  // Still the previous page's list: the new one has not reported yet.
  if (parts_.own_tools.Settling(*focus)) result["loading"] = true;
  std::string note;
  if (schemas_left_out) note = "some schemas left out for size — pass name for one tool's schema";
  if (total > offered.size()) {
    note += (note.empty() ? "" : "; ") + std::string("the page has ") + std::to_string(total) + " tools; the first " +
            std::to_string(offered.size()) + " are shown and callable";
  }
  if (!note.empty()) result["note"] = std::move(note);
  session.set_shown_page(ShownPage(session));  // the page whose tools a call means now
  reply(tools::Result(std::move(result)));
}

// What a page's own tool answered is the page's words (docs/policy.md
// "Threat model"): the answer says so in a last text block of its own.
static void MarkUntrusted(Json& result) {
  if (!result.is_object() || !result.contains("content") || !result["content"].is_array()) return;
  result["content"].push_back({{"type", "text"}, {"text", std::string(own_tools::kUntrustedAnswerNote)}});
}

void OwnToolCalls::CallWebMcpTool(Session& session, const ToolCall& call, Reply reply) {
  CallByName(session, call.key, call.args, std::move(reply));
}

void OwnToolCalls::CallByName(Session& session, const std::string& request_key, const Json& args, Reply reply,
                              std::optional<Session::ShownPage> shown) {
  shown = CalledFor(session, std::move(shown));
  const auto focus = session.focused_tab();
  if (!focus || parts_.tabs.Find(*focus) == nullptr) {
    return reply(tools::ErrorResult("call_webmcp_tool: no tab is focused — call focus_tab or open_tab first"));
  }
  const std::string name = field::String(args, "name").value_or("");
  if (WaitsForNewPage(session, name)) {
    return ParkForNewPage(session, request_key, name, std::move(reply),
                          [this, args, shown](Session& s, const std::string& key, Reply r) {
                            CallByName(s, key, args, std::move(r), shown);
                          });
  }
  const auto offered = OfferedTo(session);
  const auto* found = FindOffered(offered, name);
  if (found == nullptr) {
    return reply(tools::ErrorResult("call_webmcp_tool: the page has no tool " + name +
                                    " — its tools: " + OwnToolNamesNow(session) + " (list_webmcp_tools shows them)"));
  }
  if (auto other = OtherSiteAnswer(session, std::string(tools::kCallWebMcpTool), shown))
    return reply(std::move(*other));
  const Json* given = field::Find(args, "arguments");
  Run(session, request_key, *found, given == nullptr || given->is_null() ? Json::object() : *given, std::move(reply),
      shown);
}

bool OwnToolCalls::WaitsForNewPage(const Session& session, const std::string& name) const {
  const auto focus = session.focused_tab();
  if (!focus || !parts_.own_tools.NewUntil(*focus)) return false;
  if (parts_.own_tools.Settling(*focus)) return true;
  return FindOffered(OfferedTo(session, For::kAnyway), name) == nullptr;
}

void OwnToolCalls::ParkForNewPage(Session& session, const std::string& request_key, const std::string& name,
                                  Reply reply, Rerun rerun) {
  const std::int64_t session_id = session.id();
  parked_calls_.push_back({session_id, *session.focused_tab(), request_key, name, std::move(reply), std::move(rerun)});
  session.SetCanceller(request_key, [this, session_id, request_key] {
    std::erase_if(parked_calls_,
                  [&](const ParkedCall& p) { return p.session_id == session_id && p.request_key == request_key; });
  });
  ResumeParkedCalls();  // arms the timer for its wait
}

void OwnToolCalls::ResumeParkedCalls() {
  if (parked_calls_.empty()) return parked_timer_.Stop();
  std::vector<ParkedCall> due;
  std::uint64_t next = UINT64_MAX;
  std::erase_if(parked_calls_, [&](ParkedCall& p) {
    const Session* session = parts_.sessions.Find(p.session_id);
    const auto until = parts_.own_tools.NewUntil(p.tab_id);
    const bool waits =
        session != nullptr && until && session->focused_tab() == p.tab_id &&
        (parts_.own_tools.Settling(p.tab_id) || FindOffered(OfferedTo(*session, For::kAnyway), p.name) == nullptr);
    if (waits) {
      next = std::min(next, *until);
      return false;
    }
    due.push_back(std::move(p));
    return true;
  });
  if (next != UINT64_MAX) {
    parked_timer_.Start(next - uv_now(parts_.loop), [this] { ResumeParkedCalls(); });
  } else {
    parked_timer_.Stop();
  }
  for (auto& p : due) {
    // A session that ended has no one to answer (its reply sends nothing).
    if (Session* session = parts_.sessions.Find(p.session_id)) p.rerun(*session, p.request_key, std::move(p.reply));
  }
}

void OwnToolCalls::Run(Session& session, const std::string& request_key, const own_tools::Offered& offered,
                       const Json& args, Reply reply, std::optional<Session::ShownPage> shown, bool retry) {
  const std::string mcp_name = offered.mcp_name;
  if (auto ok = tools::CheckArguments(offered.mcp_tool, args, tools::Extra::kPerSchema); !ok) {
    return reply(tools::ErrorResult(mcp_name + ": " + ok.error()));
  }
  const std::int64_t tab_id = *session.focused_tab();
  const own_tools::OwnToolSet& set = *parts_.own_tools.Find(tab_id);  // OfferedTo found it
  const std::int64_t session_id = session.id();
  Json params = {{"tabId", tab_id},
                 {"documentId", set.document_id},
                 {"name", offered.tool->name},
                 {"source", offered.tool->source},
                 {"arguments", args},
                 {ext_method::kPolicyUrlParam, FocusedTabUrl(parts_.tabs, session).value_or("")}};
  // The model's order of the arguments, which Json's objects do not keep.
  if (auto ordered = own_tools::ArgumentsInOrder(session.ArgumentsText(request_key), args)) {
    params["argumentsText"] = std::move(*ordered);
  }
  // A press or submit may take the tab to another page: the extension then
  // answers once that page's own tools are in, and what the navigation
  // changed is told once, right before the answer (as a click's).
  const std::function<void()> release = session.HoldUntilReleased();
  const auto call = parts_.gate.CallExtension(
      {.session_id = session_id,
       .tool = mcp_name,
       .cap = policy::Cap::kAct,
       .method = std::string(ext_method::kOwnToolCall),
       .params = std::move(params),
       .deadline_ms = kOwnToolCallDeadlineMs,
       .decides = false,
       .settled = release},
      reply,
      [this, mcp_name, tab_id, session_id, request_key, args, shown, retry](std::expected<Json, rpc::Error> outcome,
                                                                            Reply answer) {
        Session* s = parts_.sessions.Find(session_id);
        // The page it was made for was left before the call reached it: once,
        // run it on the new page when that offers the tool (and so the policy
        // allows it there). One that reached the page may have done its work.
        if (retry && s != nullptr && !outcome && outcome.error().code == rpc_error::kDocumentChanged &&
            field::Bool(outcome.error().data, "notRun").value_or(false) && s->focused_tab() == tab_id &&
            WaitsForNewPage(*s, mcp_name)) {
          return ParkForNewPage(*s, request_key, mcp_name, answer,
                                [this, mcp_name, args, shown](Session& again, const std::string& key, Reply r) {
                                  const auto offered_now = OfferedTo(again);
                                  const auto* found = FindOffered(offered_now, mcp_name);
                                  if (found == nullptr || found->mcp_name != mcp_name) {
                                    return r(tools::ErrorResult(
                                        mcp_name + ": the page changed — its tools are now: " + OwnToolNamesNow(again) +
                                        " (list_webmcp_tools shows them with their schemas)"));
                                  }
                                  // The same site only: the arguments were made for it.
                                  if (auto other = OtherSiteAnswer(again, mcp_name, shown)) return r(std::move(*other));
                                  Run(again, key, *found, args, std::move(r), shown, /*retry=*/false);
                                });
        }
        const std::string changed =
            "the page changed — its tools are now: " + (s ? OwnToolNamesNow(*s) : std::string("unknown")) +
            " (list_webmcp_tools shows them with their schemas)";
        const bool page_answered = outcome.has_value();
        Json result = ExtensionToolResult(mcp_name, tab_id, std::move(outcome), changed);
        if (page_answered) MarkUntrusted(result);
        answer(std::move(result));
      });
  if (call == 0) return;  // answered at once: the extension is gone
  session.SetCanceller(request_key, [this, call, release] {
    parts_.gate.CancelExtension(call);  // its callback never runs
    release();
  });
}

}  // namespace tb
