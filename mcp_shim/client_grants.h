// The site question asked through the MCP client (MCP `elicitation/create`)
// when nobody can answer it in the browser (a headless one): the host's
// denial carries denied.ask {site, access, nobody: true}; a client that
// declared `elicitation` shows the question to its user; their answer goes to
// the host (tabbridge/grant) and the call runs again, once. A client that
// declines says Deny; one that cancels, fails or does not answer in time
// leaves the host's denial — which says how to grant it — as the answer.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <uv.h>

#include "common/jsonrpc.h"
#include "common/uv_util.h"

namespace tb {

inline constexpr std::string_view kElicitationCreate = "elicitation/create";

class ClientGrants {
 public:
  struct Question {
    std::string site;
    std::string access;  // read, act, eval, download
  };
  // The user's choice: "once", "always", "deny"; nullopt when there is none.
  using OnChoice = std::function<void(std::optional<std::string> choice)>;

  // `send` writes one message to the client.
  ClientGrants(uv_loop_t* loop, std::function<void(const Json&)> send);
  ~ClientGrants();

  // initialize's capabilities.elicitation (form mode: an empty object or `form`).
  void SetDeclared(const Json& elicitation);
  bool declared() const { return declared_; }

  // The question in a host's tool result, when it is one the client may be asked.
  static std::optional<Question> AskedIn(const Json& result);
  void Ask(const Question& question, OnChoice on_choice);
  // Whether the user already answered `question` in this session: a call
  // denied before that answer reached the host is not asked again.
  bool Answered(const Question& question) const { return answered_.contains(question.site + " " + question.access); }
  // A response from the client: true when it answered one of our questions.
  bool OnResponse(const rpc::Message& msg);
  void Close();

 private:
  struct Open {
    Question question;
    std::vector<OnChoice> waiting;  // calls of one site and access share one question
    std::unique_ptr<Timer> deadline;
  };
  void Settle(const std::string& key, std::optional<std::string> choice);

  uv_loop_t* loop_;
  std::function<void(const Json&)> send_;
  bool declared_ = false;
  std::map<std::string, Open> open_;  // by dumped request id
  std::set<std::string> answered_;    // "site access"
  std::int64_t next_id_ = 1;
};

}  // namespace tb
