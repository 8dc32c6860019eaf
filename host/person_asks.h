// Questions to the person at the browser (docs/policy.md "Asking the
// person"): a site grant, or a hand-off (ask_person). The extension shows each
// on its own surface — an extension window the page cannot see, script or
// cover — and the person's click comes back as person.answer. Every question
// ends once: answered, timed out, cancelled by its caller, or dropped with
// its session; the extension hears person.close for each that did not end by
// the person's click. Identical grant questions of one session (two calls to
// one site) are one question with several waiters.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/uv_util.h"

namespace tb {

// A session has at most this many questions waiting for the person: a model
// (or the page steering it) must not bury them in windows.
inline constexpr std::size_t kMaxOpenQuestions = 3;
// What a call answers when its session has kMaxOpenQuestions waiting already.
std::string TooManyQuestions(const std::string& tool);

class PersonAsks {
 public:
  struct Question {
    std::string kind;  // "grant" | "handoff"
    std::int64_t session_id = 0;
    std::string client;  // the MCP client's name: who is asking
    std::optional<std::int64_t> tab_id;
    std::string site, access;  // grant
    std::string message;       // handoff: the model's words
    std::uint64_t timeout_ms = 0;
  };
  // The person's choice ("once", "always", "deny"; "done", "cannot"), or ""
  // when the question ended without one (timeout, host closing).
  using OnAnswer = std::function<void(const std::string& choice)>;
  using Notify = std::function<void(std::string_view method, Json params)>;

  PersonAsks(uv_loop_t* loop, Notify notify);
  ~PersonAsks();
  PersonAsks(const PersonAsks&) = delete;
  PersonAsks& operator=(const PersonAsks&) = delete;

  // Shows `question` (or joins the same grant question of the session that is
  // already showing). Returns a ticket for Cancel.
  std::int64_t Ask(Question question, OnAnswer on_answer);
  // The person's click. An error when the question is over or `choice` is not one of its answers.
  std::expected<void, std::string> Answer(std::int64_t ask_id, const std::string& choice);
  // The caller no longer waits (its call was cancelled); the question goes
  // when nobody else waits for it.
  void Cancel(std::int64_t ticket);
  // A session left: its questions go, unanswered.
  void DropSession(std::int64_t session_id);
  // Ends every question with "" (host closing). Idempotent.
  void Close();
  std::size_t open() const { return asks_.size(); }
  // Questions of `session_id` waiting now; whether `question` would join one of them.
  std::size_t OpenFor(std::int64_t session_id) const;
  bool Joins(const Question& question) const;

 private:
  struct Open {
    Question question;
    std::map<std::int64_t, OnAnswer> waiters;  // by ticket
    std::unique_ptr<Timer> timer;
  };
  // Ends `ask_id` with `choice` for every waiter; tells the extension unless the person answered.
  void End(std::int64_t ask_id, const std::string& choice, bool tell_extension);

  uv_loop_t* loop_;
  Notify notify_;
  std::map<std::int64_t, Open> asks_;
  std::map<std::int64_t, std::int64_t> ticket_ask_;  // ticket -> ask id
  std::int64_t next_id_ = 1;
  bool closed_ = false;
};

}  // namespace tb
