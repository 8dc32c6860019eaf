// host/read_provenance.h: every block of an answer is judged by the documents
// it was read from.
#include "host/read_provenance.h"

#include <map>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/policy.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/policy_gate.h"

namespace tb {
namespace {

const std::string kMark(ext_method::kReadMeta);

// The URLs of a mark, or nullopt when there is none or it cannot be read (not
// a list of objects each with a URL the policy can place): both fail closed.
std::optional<std::vector<std::string>> UrlsOf(const Json& holder, bool& present) {
  present = false;
  const Json* meta = holder.is_object() ? field::Find(holder, "_meta") : nullptr;
  if (meta == nullptr || !meta->is_object()) return std::nullopt;
  const Json* mark = field::Find(*meta, kMark);
  if (mark == nullptr) return std::nullopt;
  present = true;
  if (!mark->is_array()) return std::nullopt;
  std::vector<std::string> urls;
  for (const Json& read : *mark) {
    const auto url = field::String(read, "url");
    if (!url || !policy::SiteOf(*url)) return std::nullopt;  // no URL, or none the policy can place
    urls.push_back(*url);
  }
  return urls;
}

// Removes the mark; and _meta when nothing else is left in it.
void StripMark(Json& holder) {
  if (!holder.is_object() || !holder.contains("_meta") || !holder["_meta"].is_object()) return;
  holder["_meta"].erase(kMark);
  if (holder["_meta"].empty()) holder.erase("_meta");
}

// Each URL decided once per answer.
class Decisions {
 public:
  explicit Decisions(const ReadDenial& deny) : deny_(deny) {}
  // The first denial among `urls`, or nullopt when every one may be read.
  const Json* FirstDenied(const std::vector<std::string>& urls) {
    for (const std::string& url : urls) {
      auto [it, fresh] = seen_.try_emplace(url);
      if (fresh) it->second = deny_(url);
      if (it->second) return &*it->second;
    }
    return nullptr;
  }

 private:
  const ReadDenial& deny_;
  std::map<std::string, std::optional<Json>, std::less<>> seen_;
};

std::string SiteName(std::string_view url) {
  const auto site = policy::SiteOf(url);
  return site ? site->Describe() : std::string("a page the host cannot name");
}

std::string FirstText(const Json& result) {
  for (const Json& part : field::Array(result, "content")) {
    if (auto text = field::String(part, "text")) return *text;
  }
  return "";
}

}  // namespace

void JudgeReads(std::string_view tool, Json& result, const ReadDenial& deny) {
  if (!result.is_object()) return;
  Decisions decisions(deny);
  const std::string name(tool);
  std::optional<Json> first_denial;
  std::size_t dropped = 0, withheld = 0;
  Json content =
      result.contains("content") && result["content"].is_array() ? std::move(result["content"]) : Json::array();
  const bool had_content = !content.empty();
  Json kept = Json::array();
  for (Json& block : content) {
    bool present = false;
    const auto urls = UrlsOf(block, present);
    if (!present) {
      ++dropped;
      continue;
    }
    const Json* denial = nullptr;
    std::string where;
    if (!urls) {
      where = "a page the host cannot name";
    } else if ((denial = decisions.FirstDenied(*urls)) != nullptr) {
      for (const std::string& url : *urls) {
        if (decisions.FirstDenied({url}) != nullptr) {
          where = SiteName(url);
          break;
        }
      }
    }
    if (!urls || denial != nullptr) {
      ++withheld;
      if (denial != nullptr && !first_denial) first_denial = *denial;
      kept.push_back({{"type", "text"},
                      {"text", name + ": text of " + where + " left out — " +
                                   (denial != nullptr ? FirstText(*denial) : std::string("its document is unknown")) +
                                   "; nothing of it was read"}});
      continue;
    }
    StripMark(block);
    kept.push_back(std::move(block));
  }
  if (dropped > 0) {
    spdlog::warn("{}: {} content block(s) without provenance (_meta {}) dropped — a bug in the extension's tool", name,
                 dropped, kMark);
  }
  // structuredContent: only with its documents named and all allowed.
  bool present = false;
  const auto data_urls = UrlsOf(result, present);
  if (result.contains("structuredContent") && (!data_urls || decisions.FirstDenied(*data_urls) != nullptr)) {
    if (!present) spdlog::warn("{}: structuredContent without provenance (_meta {}) dropped", name, kMark);
    result.erase("structuredContent");
  }
  StripMark(result);
  if (had_content && kept.size() == withheld) {
    // Nothing of the tool's own is left: the answer is the denial.
    Json instead = first_denial ? *first_denial
                                : tools::ErrorResult(name + ": the answer held no text the host could place — " +
                                                     "nothing of it was read (a tabbridge bug)");
    if (first_denial && !kept.empty()) instead["content"] = kept;
    if (result.contains("_meta")) instead["_meta"] = result["_meta"];
    result = std::move(instead);
    return;
  }
  if (dropped > 0) {
    kept.push_back(
        {{"type", "text"},
         {"text", name + ": " + std::to_string(dropped) +
                      " block(s) of the answer were left out: they were without provenance (a tabbridge bug)"}});
  }
  if (result.contains("content")) result["content"] = std::move(kept);
}

void JudgeReads(const PolicyGate& gate, const Session& session, std::string_view tool, Json& result) {
  JudgeReads(tool, result, [&](std::string_view url) { return gate.Deny(session, "read", policy::Cap::kRead, url); });
}

}  // namespace tb
