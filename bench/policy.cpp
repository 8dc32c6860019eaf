// bench_policy: what the policy costs a call — one Decide on the example file
// of docs/policy.md, over a denied, an allowed-by-host and a `*` URL. A call
// makes 1–3 decisions; a tools/list fingerprint about 17.
#include <cstdio>

#include "bench/stats.h"
#include "common/policy.h"

int main() {
  const auto policy = tb::policy::Parse(R"({"rules": [
    {"sites": ["*.mybank.com", "mail.google.com"], "deny": ["all"]},
    {"sites": ["localhost", "127.0.0.1"], "allow": ["eval", "download"]},
    {"sites": ["*"], "allow": ["read", "act", "navigate"]}]})",
                                        "/bench/policy.json");
  const char* urls[] = {"https://mail.google.com/mail/u/0/#inbox", "http://127.0.0.1:8080/x",
                        "https://www.example.com/a/b?c=d"};
  constexpr int kRounds = 200;
  constexpr int kPerRound = 1500;
  std::vector<double> per_decision;
  int allowed = 0;
  for (int round = 0; round < kRounds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kPerRound; ++i)
      allowed += tb::policy::Decide(policy, tb::policy::Cap::kAct, urls[i % 3]).allowed;
    per_decision.push_back(tb::bench::MicrosSince(start) / kPerRound);
  }
  const auto s = tb::bench::Summarize(per_decision);
  tb::bench::Row("policy: one Decide (docs/policy.md example file)",
                 tb::bench::Format("p50 %.2f / p99 %.2f µs (%d allowed)", s.p50, s.p99, allowed), "—");
  return 0;
}
