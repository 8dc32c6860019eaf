// The popup's side of the host (docs/protocol.md "The popup"): host.state,
// the view of the host the extension's popup and toolbar badge show, and the
// requests behind the popup's buttons (policy.check, tab.detach,
// session.disconnect). Every request is answered at once; a field of the
// wrong type gets -32602 naming it, and nothing else changes. A part of the
// host: it knows the host only by what it is handed here.
#pragma once

#include <cstdint>
#include <expected>
#include <functional>
#include <utility>

#include "common/jsonrpc.h"
#include "host/policy_gate.h"
#include "host/sessions.h"

namespace tb {

class PopupRequests {
 public:
  struct Parts {
    const PolicyGate& policy;
    Sessions& sessions;
    std::function<void()> after_tabs_changed;             // focus, lists and tabs told to every session
    std::function<void(std::int64_t id)> remove_session;  // as when its shim leaves
  };

  explicit PopupRequests(Parts parts) : parts_(std::move(parts)) {}

  // host.state's params: the host, its policy and the attached sessions.
  Json HostState() const;
  // The extension's requests, one signature each.
  std::expected<Json, rpc::Error> CheckPolicy(const Json& params) const;
  std::expected<Json, rpc::Error> DetachTab(const Json& params);
  std::expected<Json, rpc::Error> DisconnectSession(const Json& params);

 private:
  bool AnySessionHasNetwork() const;  // host.state's networkLog

  Parts parts_;
};

}  // namespace tb
