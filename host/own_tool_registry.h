// Every tab's own tools (WebMCP, forms) as the extension reports them, and the
// two timings that keep sessions calm: after a navigation a tab keeps its old
// list until the new page reports — once it found all its tools, so one
// navigation is one change (issue 41) — at most the settle time, and a
// document that changes its tools in a loop is applied at most once per
// kOwnToolsChangeIntervalMs (the last list wins). What it applies reaches the
// sessions through `on_changed` (Session::RefreshTools holds a focused tab's
// change while it settles).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <uv.h>

#include "common/uv_util.h"
#include "host/own_tools.h"

namespace tb {

class OwnToolRegistry {
 public:
  OwnToolRegistry(uv_loop_t* loop, std::uint64_t settle_ms, std::function<void()> on_changed);

  // Which WebMCP runtime a page reported (any page, also one the agent does not see).
  void NoteRuntime(const own_tools::OwnToolSet& set);
  // The extension's report of a tab's current document (a tab the host knows).
  // `settled` false: the clear at a new document's commit, whose report
  // follows — the tab settles until it comes; absent (an older extension):
  // an empty list for another document is taken for that clear.
  void Report(std::int64_t tab_id, own_tools::OwnToolSet set, std::optional<bool> settled = std::nullopt);
  // The document the tab's last report came from ("" before any): the new
  // page's as soon as it reported, even while the tab settles.
  std::string DocumentOf(std::int64_t tab_id) const;
  // The tab's tools (the previous page's while it settles); null when none.
  const own_tools::OwnToolSet* Find(std::int64_t tab_id) const;
  // Whether the tab's new document has not reported its tools yet.
  bool Settling(std::int64_t tab_id) const { return settling_.contains(tab_id); }
  // Until when (uv_now() time) the tab's document counts as new: the settle
  // time from its navigation, also after it reported (a page may register its
  // tools late, once its framework mounted). nullopt when it is not new.
  std::optional<std::uint64_t> NewUntil(std::int64_t tab_id) const;
  // Drops what it keeps of tabs for which `gone` is true.
  void Forget(const std::function<bool(std::int64_t tab_id)>& gone);
  // The WebMCP runtime pages reported: "native" once any page had it, "absent", or "" before any report.
  const std::string& runtime_seen() const { return runtime_seen_; }
  void Close();

 private:
  void Apply(std::int64_t tab_id, own_tools::OwnToolSet set);
  void OnSettleTimer();
  void OnPaceTimer();

  uv_loop_t* loop_;
  std::uint64_t settle_ms_;
  std::function<void()> on_changed_;
  bool closed_ = false;
  std::map<std::int64_t, own_tools::OwnToolSet> sets_;  // tabs without tools have no entry
  std::map<std::int64_t, std::string> documents_;       // DocumentOf
  std::string runtime_seen_;
  struct Settle {
    std::uint64_t deadline;   // uv_now() time
    std::string document_id;  // the new document, whose first report ends it
  };
  std::map<std::int64_t, Settle> settling_;
  std::map<std::int64_t, std::uint64_t> new_until_;  // NewUntil; pruned as they pass
  struct Pace {
    std::uint64_t last_applied = 0;                // uv_now() time
    std::optional<own_tools::OwnToolSet> pending;  // the latest list still waiting
  };
  std::map<std::int64_t, Pace> pace_;
  Timer settle_timer_;
  Timer pace_timer_;
};

}  // namespace tb
