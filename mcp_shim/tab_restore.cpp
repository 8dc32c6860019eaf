#include "mcp_shim/tab_restore.h"

#include <memory>

#include <spdlog/spdlog.h>

#include "common/json_field.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"

namespace tb {
namespace {

// A tab call's deadline: open_tab waits for the page (kOpenTabLoadWaitMs).
constexpr std::uint64_t kTabCallMs = kDefaultExtensionDeadlineMs + 2'000;

struct Restore {
  std::function<HostLink*()> link;
  SessionTabs remembered;
  std::vector<RestoreStep> steps;
  std::vector<Restored> restored;
  std::size_t next = 0;
  std::function<void(std::string)> done;
};

using Answer = std::function<void(std::expected<Json, std::string>)>;

// One tool call on the host; its structured result, or why it failed.
void Call(const std::shared_ptr<Restore>& r, std::string_view tool, Json args, Answer answer) {
  HostLink* link = r->link();
  if (link == nullptr) return answer(std::unexpected(std::string("the browser went again")));
  link->Request(mcp::kToolsCall, {{"name", tool}, {"arguments", std::move(args)}}, kTabCallMs,
                [answer = std::move(answer)](std::expected<Json, rpc::Error> outcome) {
                  if (!outcome) return answer(std::unexpected(outcome.error().message));
                  if (field::Bool(*outcome, "isError").value_or(false)) {
                    const Json content = field::Array(*outcome, "content");
                    return answer(std::unexpected(content.empty() ? std::string("an error")
                                                                  : field::String(content[0], "text").value_or("")));
                  }
                  answer(field::Object(*outcome, "structuredContent"));
                });
}

void Finish(const std::shared_ptr<Restore>& r) {
  std::optional<std::int64_t> focus_now;
  if (r->remembered.focused) {
    for (const auto& done : r->restored) {
      if (done.was.id == *r->remembered.focused && done.now) focus_now = done.now;
    }
  }
  if (!focus_now) return r->done(RestoreSummary(r->restored, std::nullopt));
  Call(r, tools::kFocusTab, {{"tabId", *focus_now}}, [r, focus_now](std::expected<Json, std::string> outcome) {
    if (!outcome) spdlog::warn("could not focus tab {} again: {}", *focus_now, outcome.error());
    r->done(RestoreSummary(r->restored, outcome ? focus_now : std::nullopt));
  });
}

void Next(const std::shared_ptr<Restore>& r) {
  if (r->next >= r->steps.size()) return Finish(r);
  const RestoreStep& step = r->steps[r->next++];
  if (step.found) {
    r->restored.push_back({step.was, step.found, ""});
    return Next(r);
  }
  Call(r, tools::kOpenTab, {{"url", step.was.url}, {"focus", false}},
       [r, was = step.was](std::expected<Json, std::string> outcome) {
         const auto id = outcome ? field::Int(field::Object(*outcome, "tab"), "id") : std::nullopt;
         r->restored.push_back({was, id, outcome ? "open_tab answered no tab id" : outcome.error()});
         Next(r);
       });
}

}  // namespace

void RestoreTabs(std::function<HostLink*()> link, SessionTabs remembered,
                 std::function<void(std::string summary)> done) {
  if (remembered.tabs.size() > kMaxRestoredTabs) remembered.tabs.resize(kMaxRestoredTabs);
  auto r = std::make_shared<Restore>(Restore{std::move(link), std::move(remembered), {}, {}, 0, std::move(done)});
  if (r->remembered.tabs.empty()) return r->done("");
  Call(r, tools::kListTabs, Json::object(), [r](std::expected<Json, std::string> outcome) {
    r->steps = PlanRestore(r->remembered, outcome ? ParseOpenTabs(*outcome) : std::vector<KnownTab>{});
    Next(r);
  });
}

}  // namespace tb
