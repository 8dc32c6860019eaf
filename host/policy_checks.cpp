// The policy at the host's end (docs/policy.md): which URLs a call is checked
// against, its denial, its audit line, and the second look after the
// extension ran it (docs/protocol.md "The policy, checked twice").
#include <string>
#include <vector>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/host.h"

namespace tb {

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
  // Without a focused tab the tool itself says so; read-only sessions are
  // still refused what they may never do.
  const auto focused = FocusedUrl(session);
  if (focused) urls.push_back(*focused);
  if (name == "navigate" || name == "download_file") {
    if (const auto target = field::String(args, "url")) urls.push_back(*target);
  }
  if (urls.empty() && session.read_only()) urls.emplace_back();
  return urls;
}

std::optional<Json> Host::PolicyDenial(const Session& session, const std::string& name, policy::Cap cap,
                                       const std::vector<std::string>& urls) const {
  for (const auto& url : urls) {
    if (auto denial = policy_.Deny(session, name, cap, url)) return denial;
  }
  return std::nullopt;
}

Host::Reply Host::Audited(const Session& session, const std::string& name, policy::Cap cap,
                          const std::vector<std::string>& urls, Reply reply) {
  if (!PolicyGate::Audited(cap)) return reply;
  // The tab's URL, and where the call goes when that is another (open_tab's only URL is its target).
  std::string url = name == tools::kOpenTab || urls.empty() ? "" : urls.front();
  std::string target = name == tools::kOpenTab && !urls.empty() ? urls.front() : urls.size() > 1 ? urls[1] : "";
  return [this, session_id = session.id(), name, url, target, reply = std::move(reply)](Json result) {
    if (const Session* s = FindSession(session_id)) policy_.Audit(*s, name, url, result, target);
    reply(std::move(result));
  };
}

std::optional<Json> Host::RecheckAfter(std::int64_t session_id, const std::string& name, policy::Cap cap,
                                       std::expected<Json, rpc::Error>& outcome) {
  const Session* session = FindSession(session_id);
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
  Json* meta = outcome->is_object() ? field::Find(*outcome, "_meta") != nullptr ? &(*outcome)["_meta"] : nullptr : nullptr;
  if (meta == nullptr || !meta->is_object()) return std::nullopt;
  const auto navigated_to = field::String(*meta, ext_method::kNavigatedToMeta);
  meta->erase(std::string(ext_method::kNavigatedToMeta));
  if (meta->empty()) outcome->erase("_meta");
  if (!navigated_to || session == nullptr) return std::nullopt;
  // A navigation an action caused counts as `navigate`; and what the result
  // says of the new page (its title) is `read`.
  for (const auto& [label, needed] : {std::pair{"navigate", policy::Cap::kNavigate}, std::pair{"read", policy::Cap::kRead}}) {
    if (auto denial = policy_.Deny(*session, label, needed, *navigated_to)) {
      Json& text = (*denial)["content"][0]["text"];
      text = name + ": the page went to another site — " + text.get<std::string>() +
             "; nothing of that page was read (list_tabs shows the tab)";
      return denial;
    }
  }
  return std::nullopt;
}

}  // namespace tb
