#include "host/person_asks.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "common/protocol.h"

namespace tb {

std::string TooManyQuestions(const std::string& tool) {
  return tool + ": " + std::to_string(kMaxOpenQuestions) +
         " questions of this session are already waiting for the person — wait for their answers, then call again";
}

namespace {

bool IsChoiceOf(const std::string& kind, const std::string& choice) {
  static constexpr std::array<std::string_view, 3> kGrant = {"once", "always", "deny"};
  static constexpr std::array<std::string_view, 2> kHandoff = {"done", "cannot"};
  if (kind == "grant") return std::ranges::find(kGrant, choice) != kGrant.end();
  return std::ranges::find(kHandoff, choice) != kHandoff.end();
}

}  // namespace

PersonAsks::PersonAsks(uv_loop_t* loop, Notify notify) : loop_(loop), notify_(std::move(notify)) {}

PersonAsks::~PersonAsks() { Close(); }

namespace {

bool SameGrant(const PersonAsks::Question& a, const PersonAsks::Question& b) {
  return a.kind == "grant" && b.kind == "grant" && a.session_id == b.session_id && a.site == b.site &&
         a.access == b.access;
}

}  // namespace

std::size_t PersonAsks::OpenFor(std::int64_t session_id) const {
  return static_cast<std::size_t>(
      std::ranges::count_if(asks_, [&](const auto& entry) { return entry.second.question.session_id == session_id; }));
}

bool PersonAsks::Joins(const Question& question) const {
  return std::ranges::any_of(asks_, [&](const auto& entry) { return SameGrant(entry.second.question, question); });
}

std::int64_t PersonAsks::Ask(Question question, OnAnswer on_answer) {
  const std::int64_t ticket = next_id_++;
  if (closed_) {
    on_answer("");
    return ticket;
  }
  for (auto& [id, open] : asks_) {
    if (SameGrant(open.question, question)) {
      open.waiters.emplace(ticket, std::move(on_answer));
      ticket_ask_[ticket] = id;
      return ticket;
    }
  }
  const std::int64_t ask_id = ticket;
  Open& open = asks_[ask_id];
  open.question = std::move(question);
  open.waiters.emplace(ticket, std::move(on_answer));
  ticket_ask_[ticket] = ask_id;
  open.timer = std::make_unique<Timer>(loop_);
  open.timer->Start(open.question.timeout_ms, [this, ask_id] { End(ask_id, "", true); });
  const Question& q = open.question;
  Json params = {{"askId", ask_id},
                 {"kind", q.kind},
                 {"client", q.client},
                 {"tabId", q.tab_id ? Json(*q.tab_id) : Json(nullptr)},
                 {"timeoutMs", q.timeout_ms}};
  if (q.kind == "grant") {
    params["site"] = q.site;
    params["access"] = q.access;
  } else {
    params["message"] = q.message;
    if (!q.site.empty()) params["site"] = q.site;  // where the hand-off's tab is
  }
  notify_(ext_method::kPersonAsk, std::move(params));
  return ticket;
}

std::expected<void, std::string> PersonAsks::Answer(std::int64_t ask_id, const std::string& choice) {
  const auto it = asks_.find(ask_id);
  if (it == asks_.end()) return std::unexpected("question " + std::to_string(ask_id) + " is over");
  if (!IsChoiceOf(it->second.question.kind, choice)) {
    return std::unexpected("\"" + choice + "\" is not an answer to a " + it->second.question.kind + " question");
  }
  End(ask_id, choice, false);
  return {};
}

void PersonAsks::Cancel(std::int64_t ticket) {
  const auto found = ticket_ask_.find(ticket);
  if (found == ticket_ask_.end()) return;
  const std::int64_t ask_id = found->second;
  ticket_ask_.erase(found);
  const auto it = asks_.find(ask_id);
  if (it == asks_.end()) return;
  it->second.waiters.erase(ticket);
  if (!it->second.waiters.empty()) return;
  asks_.erase(it);
  notify_(ext_method::kPersonClose, {{"askId", ask_id}});
}

void PersonAsks::DropSession(std::int64_t session_id) {
  std::vector<std::int64_t> ids;
  for (const auto& [id, open] : asks_) {
    if (open.question.session_id == session_id) ids.push_back(id);
  }
  for (const auto id : ids) End(id, "", true);
}

void PersonAsks::End(std::int64_t ask_id, const std::string& choice, bool tell_extension) {
  const auto it = asks_.find(ask_id);
  if (it == asks_.end()) return;
  // Taken out first: a waiter may ask again (its call runs again) from inside.
  Open open = std::move(it->second);
  asks_.erase(it);
  for (const auto& [ticket, waiter] : open.waiters) ticket_ask_.erase(ticket);
  if (tell_extension && !closed_) notify_(ext_method::kPersonClose, {{"askId", ask_id}});
  for (auto& [ticket, waiter] : open.waiters) waiter(choice);
}

void PersonAsks::Close() {
  if (closed_) return;
  closed_ = true;
  while (!asks_.empty()) End(asks_.begin()->first, "", false);
}

}  // namespace tb
