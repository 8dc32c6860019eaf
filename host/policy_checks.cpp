// The policy at the host's end (docs/policy.md): which URLs a call is checked
// against, its denial, its audit line, and the second look after the
// extension ran it (docs/protocol.md "The policy, checked twice").
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/host.h"
#include "host/read_provenance.h"

namespace tb {
namespace {

// Where `target` goes, as the policy needs it: only its site matters. A
// path, query or fragment stays on the tab's site; "//host/…" (or "\\host",
// which browsers read alike) takes the tab's scheme; anything with a scheme
// is itself. The extension resolves it the same way before it navigates.
std::string PolicyTarget(const std::string& base, std::string target) {
  // The URL parser drops leading spaces and controls, and tabs and newlines anywhere.
  std::erase_if(target, [](char c) { return c == '\t' || c == '\n' || c == '\r'; });
  const auto first =
      std::find_if(target.begin(), target.end(), [](char c) { return static_cast<unsigned char>(c) > 0x20; });
  target.erase(target.begin(), first);
  const auto colon = target.find(':');
  const auto scheme_end = target.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");
  if (colon != std::string::npos && colon > 0 && scheme_end == colon &&
      std::isalpha(static_cast<unsigned char>(target[0]))) {
    return target;
  }
  const auto is_slash = [](char c) { return c == '/' || c == '\\'; };
  if (target.size() >= 2 && is_slash(target[0]) && is_slash(target[1])) {
    return base.substr(0, base.find(':') + 1) + "//" + target.substr(2);
  }
  return base;
}

}  // namespace

std::optional<std::string> Host::FocusedUrl(const Session& session) const {
  const auto focus = session.focused_tab();
  const Tab* tab = focus ? tabs_.Find(*focus) : nullptr;
  if (tab == nullptr) return std::nullopt;
  return tab->url;
}

bool Host::MayOnFocused(const Session& session, policy::Cap cap) const {
  const auto url = FocusedUrl(session);
  return url && policy_.Allows(session, cap, *url);
}

bool Host::ListsOnFocused(const Session& session, policy::Cap cap) const {
  const auto url = FocusedUrl(session);
  return url && policy_.Check(session, cap, *url) != PolicyGate::Verdict::kDenied;
}

std::vector<std::string> Host::PolicyUrls(const Session& session, const std::string& name, const Json& args) const {
  std::vector<std::string> urls;
  if (name == tools::kOpenTab) {
    urls.push_back(field::String(args, "url").value_or(""));  // no tab yet: only where it goes
    return urls;
  }
  if (name == tools::kCloseTab) {
    const auto given = field::Int(args, "tabId");
    const auto id = given ? given : session.focused_tab();
    if (const Tab* tab = id ? tabs_.Find(*id) : nullptr) urls.push_back(tab->url);
    return urls;
  }
  // Without a focused tab the tool itself says so.
  const auto focused = FocusedUrl(session);
  if (focused) urls.push_back(*focused);
  if (name == "navigate" || name == "download_file") {
    if (const auto target = field::String(args, "url")) urls.push_back(PolicyTarget(focused.value_or(""), *target));
  }
  return urls;
}

std::optional<Json> Host::PolicyDenial(const Session& session, const std::string& name, policy::Cap cap,
                                       const std::vector<std::string>& urls) const {
  // A read-only session is refused whatever it aims at, even a tab we do not know.
  if (session.read_only() && cap != policy::Cap::kRead) return policy_.Deny(session, name, cap, "");
  for (const auto& url : urls) {
    if (auto denial = policy_.Deny(session, name, cap, url)) return denial;
  }
  return std::nullopt;
}

// Where the call really went, as the extension found it (a link it resolved,
// the URL a download was redirected to): the audit line's target. Taken out
// of the result: it is for the log, not for the model.
static void TakeWentTo(Json& result, AuditNote& note) {
  if (!result.is_object() || !result.contains("_meta") || !result["_meta"].is_object()) return;
  Json* meta = &result["_meta"];
  const auto went = meta->find(std::string(ext_method::kWentToMeta));
  if (went == meta->end()) return;
  const std::string link = field::String(*went, "link").value_or("");
  const std::string final_url = field::String(*went, "url").value_or("");
  std::string target = link.empty() ? note.target : "link " + link;
  if (!final_url.empty() && final_url != link && final_url != note.target)
    target += (target.empty() ? "" : " redirected to ") + final_url;
  if (!target.empty()) note.target = std::move(target);
  meta->erase(went);
  if (meta->empty()) result.erase("_meta");
}

Host::Reply Host::WithAuditLine(const Session& session, const std::string& name, policy::Cap cap,
                                const std::vector<std::string>& urls, const Json& args, Reply reply) {
  if (!PolicyGate::IsAudited(cap)) return reply;
  // The tab's URL; open_tab has none, only where it goes.
  const bool opens = name == tools::kOpenTab;
  std::string url = opens || urls.empty() ? "" : urls.front();
  std::string target;
  if (opens && !urls.empty())
    target = urls.front();
  else if (urls.size() > 1)
    target = urls[1];
  AuditNote note;
  note.target = target;
  if (name == tools::kCallWebMcpTool) note.own_tool = field::String(args, "name").value_or("");
  if (name == tools::kUploadFile) {
    for (const Json& path : field::Array(args, "paths")) {
      if (path.is_string()) note.files += (note.files.empty() ? "" : ", ") + path.get<std::string>();
    }
  }
  // An error's words only where they can quote nothing of the call or the
  // page: the others may hold evaluated code and the values it met
  // (evaluate), selectors and page text (click…), what was typed (type…) —
  // docs/audit.md "What is never logged". An allow-list: a new tool logs none.
  note.error_text =
      name == tools::kOpenTab || name == tools::kCloseTab || name == "navigate" || name == "download_file";
  return [this, session_id = session.id(), name, url, note, reply = std::move(reply)](Json result) mutable {
    TakeWentTo(result, note);
    const Session* s = FindSession(session_id);
    // Logged before the answer leaves: the socket write may complete at once,
    // and whoever reads the log after the answer must find the call there.
    if (auto entry = s != nullptr ? policy_.AuditEntry(*s, name, url, result, note) : std::nullopt) {
      policy_.WriteAudit(*entry);
    }
    reply(std::move(result));
  };
}

std::optional<Json> Host::RecheckAfter(std::int64_t session_id, const std::string& name, policy::Cap cap,
                                       std::expected<Json, rpc::Error>& outcome) {
  const Session* session = FindSession(session_id);
  if (outcome && session != nullptr) JudgeReads(policy_, *session, name, *outcome);  // every block by where it was read
  if (!outcome) {
    if (outcome.error().code != rpc_error::kPageMoved) return std::nullopt;
    const std::string url = field::String(outcome.error().data, "url").value_or("");
    if (session != nullptr) {
      if (auto denial = policy_.Deny(*session, name, cap, url)) return denial;
    }
    const auto site = policy::SiteOf(url);
    return tools::ErrorResult(name + ": the tab moved to " + (site ? site->Describe() : std::string("another page")) +
                              " before the call ran — nothing was done; call it again");
  }
  const Json* found = outcome->is_object() ? field::Find(*outcome, "_meta") : nullptr;
  if (found == nullptr || !found->is_object()) return std::nullopt;
  Json& meta = (*outcome)["_meta"];
  const Json went = field::Any(meta, ext_method::kNavigatedToMeta);
  meta.erase(std::string(ext_method::kNavigatedToMeta));
  if (meta.empty()) outcome->erase("_meta");
  if (went.is_null() || session == nullptr) return std::nullopt;
  // One URL, or several: where the action sent the tab and the document
  // whose text the answer holds (a page a press landed on, read after a slow
  // redirect or a script took the tab further). Every one is decided; a mark
  // the host cannot read answers nothing of the result (fail closed).
  std::vector<std::string> urls;
  bool readable = went.is_string() || went.is_array();
  if (went.is_string()) urls.push_back(went.get<std::string>());
  for (const Json& url : went.is_array() ? went : Json::array()) {
    if (url.is_string()) {
      urls.push_back(url.get<std::string>());
    } else {
      readable = false;
    }
  }
  if (!readable) {
    return tools::ErrorResult(name + ": the page went somewhere the host could not tell — nothing of it was read " +
                              "(list_tabs shows the tab)");
  }
  // A navigation an action caused counts as `navigate` (a read that waited
  // across one, only as `read`); what the result says of the new page — its
  // title, its text — is `read`.
  std::vector<std::pair<const char*, policy::Cap>> needed = {{"read", policy::Cap::kRead}};
  if (cap != policy::Cap::kRead) needed.insert(needed.begin(), {"navigate", policy::Cap::kNavigate});
  for (const std::string& url : urls) {
    for (const auto& [label, need] : needed) {
      if (auto denial = policy_.Deny(*session, label, need, url)) {
        const auto site = policy::SiteOf(url);
        Json& text = (*denial)["content"][0]["text"];
        text = name + ": the page went to " + (site ? site->Describe() : std::string("another page")) + " — " +
               text.get<std::string>() + "; nothing of that page was read (list_tabs shows the tab)";
        (*denial)["structuredContent"]["denied"]["afterAction"] = true;  // it ran: the audit line says "stopped"
        return denial;
      }
    }
  }
  return std::nullopt;
}

}  // namespace tb
