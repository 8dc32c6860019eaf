// run_steps: several page tools (or the page's own tools) in one call, one
// after the other. Each step goes through the call gate (CallTool,
// CallOwnTool) exactly as the client's own call of that tool would (its
// arguments checked against the session's variant, the policy with its
// questions and audit line, then the extension's pinned document, site check
// and press point): the defences come with the call and none is redone here.
// A step starts only while the run is still wanted (not cancelled, the
// session alive), so a cancelled run acts no further.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "common/json_field.h"
#include "common/policy.h"
#include "common/protocol.h"
#include "common/tool_catalog.h"
#include "host/run_steps.h"

namespace tb {
namespace {

struct RunState {
  // The session's notifications are held for the whole run: what its steps
  // changed in the list (a step that navigated, a page adding tools) is one
  // list_changed, right before the run's answer.
  RunState() = default;
  RunState(const RunState&) = delete;
  RunState& operator=(const RunState&) = delete;
  ~RunState() {
    if (release) release();  // a run cancelled, or its session gone
  }
  std::function<void()> release;
  std::int64_t session_id = 0;
  std::string key;           // the run's request: its cancellation is every step's
  std::uint64_t serial = 0;  // which call under that key (Session::SerialOf): not a later one reusing its id
  Json steps;
  Json progress_token;  // the client's, or null: a notification as each step starts
  std::size_t next = 0;
  std::size_t ran = 0;
  bool failed = false;
  Json content = Json::array();  // per step: one text item, then any image it answered
  Json summary = Json::array();  // per step: {tool, isError}
  // Where the run began: every step's arguments were written for that page.
  std::optional<std::int64_t> tab;
  std::string site;
  std::string stopped;  // why the run stopped before its end other than an error, if it did
  RunSteps::Reply reply;
};

// The site of the session's focused tab ("" without one).
std::string FocusedSite(const RunSteps::Parts& parts, const Session& session) {
  const auto url = parts.focused_url(session);
  const auto site = url ? policy::SiteOf(*url) : std::nullopt;
  return site ? site->Describe() : "";
}

// Why step `name`, one of tabbridge's own tools, is not one run_steps runs,
// or "". Its arguments are the call gate's to check, as any call's.
std::string Refusal(const std::string& name) {
  if (name == tools::kRunSteps) return "run_steps does not run inside run_steps";
  if (!tools::IsPageTool(name)) {
    return "run_steps runs the focused tab's page tools (snapshot, click, type, …) and the page's own tools; call " +
           name + " on its own";
  }
  if (!tools::PolicyOf(name)->audit.files_arg.empty()) {
    return name + " reads your files through tabbridge: call it on its own";
  }
  return "";
}

void Record(RunState& run, std::size_t index, const std::string& name, const Json& result) {
  const bool error = field::Bool(result, "isError").value_or(false);
  run.failed = run.failed || error;
  ++run.ran;
  std::string text;
  Json extra = Json::array();
  for (const auto& item : field::Array(result, "content")) {
    if (field::String(item, "type").value_or("") == "text") {
      text += (text.empty() ? "" : "\n") + field::String(item, "text").value_or("");
    } else {
      extra.push_back(item);  // an image or a resource, as the tool answered it
    }
  }
  run.content.push_back(
      {{"type", "text"},
       {"text", "[" + std::to_string(index + 1) + "] " + name + (error ? " (error): " : ": ") + text}});
  for (auto& item : extra) run.content.push_back(std::move(item));
  run.summary.push_back({{"tool", name}, {"isError", error}});
}

void Finish(RunState& run) {
  const std::size_t total = run.steps.size();
  if (!run.stopped.empty()) {
    run.content.push_back({{"type", "text"}, {"text", run.stopped}});
  } else if (run.ran < total) {
    run.content.push_back({{"type", "text"},
                           {"text", "stopped at step " + std::to_string(run.ran) + "'s error: steps " +
                                        std::to_string(run.ran + 1) + "–" + std::to_string(total) + " did not run"}});
  }
  Json result = {{"content", std::move(run.content)},
                 {"structuredContent", {{"steps", std::move(run.summary)}, {"ran", run.ran}, {"of", total}}}};
  if (run.failed) result["isError"] = true;
  run.release();
  run.reply(std::move(result));
}

void Step(const RunSteps::Parts& parts, const std::shared_ptr<RunState>& run) {
  Session* session = parts.find_session(run->session_id);
  if (session == nullptr || !session->Running(run->key, run->serial))
    return;  // gone or cancelled: no step acts after that
  if (run->next == run->steps.size() || run->failed) return Finish(*run);
  // The steps were written for the page the run began on: a step that took
  // the tab to another site (or another tab) ends the run, as the model would
  // first have seen where it went before writing its next call there.
  if (run->next > 0) {
    const std::string site = FocusedSite(parts, *session);
    if (session->focused_tab() != run->tab || site != run->site) {
      run->failed = true;
      run->stopped = "stopped after step " + std::to_string(run->next) + ": the focused tab is now on " +
                     (site.empty() ? std::string("no page") : site) + ", not " + run->site + "; steps " +
                     std::to_string(run->next + 1) + "–" + std::to_string(run->steps.size()) +
                     " did not run (they were written for " + run->site + ")";
      return Finish(*run);
    }
  }
  const std::size_t index = run->next++;
  const Json& step = run->steps[index];
  const std::string name = field::String(step, "tool").value_or("");
  const Json args = field::Object(step, "arguments");
  // The client hears which step runs (a run of slow steps is not silent),
  // and host.state names it as the session's last tool.
  session->NoteToolCall(name);
  if (!run->progress_token.is_null()) {
    session->Notify(mcp::kProgress, {{"progressToken", run->progress_token},
                                     {"progress", index},
                                     {"total", run->steps.size()},
                                     {"message", "step " + std::to_string(index + 1) + " of " +
                                                     std::to_string(run->steps.size()) + ": " + name}});
  }
  RunSteps::Reply reply(
      [&parts, alive = parts.alive, run, index, name](Json result) {
        if (alive.expired()) return;
        Record(*run, index, name, result);
        Step(parts, run);
      },
      tools::ErrorResult(name + ": tabbridge-host dropped this step without an answer (a bug)"));
  // Without the run's token: a step's own progress would not rise with the run's.
  ToolCall call{.session_id = run->session_id, .key = run->key, .name = name, .args = args};
  if (tools::Find(name) == nullptr) {
    // The page's own tools (WebMCP, forms): decided as a call of them is,
    // on the page the model last heard of (OwnToolCalls::CallOwnTool).
    if (!parts.call_own_tool(*session, call, reply)) {
      reply(tools::ErrorResult("Unknown tool: " + name + " (neither a page tool nor one of the page's own)"));
    }
    return;
  }
  if (const std::string refusal = Refusal(name); !refusal.empty()) {
    return reply(tools::ErrorResult(name + ": " + refusal));
  }
  // Through the call gate, as the client's own call of the tool.
  parts.call_tool(*session, std::move(call), std::move(reply));
}

}  // namespace

void RunSteps::Run(Session& session, const ToolCall& call, Reply reply) {
  auto run = std::make_shared<RunState>();
  run->session_id = session.id();
  run->key = call.key;
  run->serial = session.SerialOf(call.key);
  run->steps = field::Array(call.args, "steps");
  run->progress_token = call.progress;
  run->reply = std::move(reply);
  run->tab = session.focused_tab();
  run->site = FocusedSite(parts_, session);
  run->release = parts_.hold_notifications(session);
  Step(parts_, run);
}

}  // namespace tb
