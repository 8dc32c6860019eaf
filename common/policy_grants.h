// The person's grants (docs/policy.md "Asking the person"): what one answer
// allows or takes away, and the answers kept in the policy file — a rule
// {"sites": [one site], "allow": [...]}, the file's own format, so `tabbridge
// policy` shows it and a person may edit it by hand.
#pragma once

#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/policy.h"

namespace tb::policy {

// What the person is asked: to let an agent read a site (and go to its
// pages), also act there, run JavaScript there, or download from it.
enum class Access { kRead, kAct, kEval, kDownload };
std::string_view Name(Access access);
std::optional<Access> AccessFromName(std::string_view name);
// The access a call needing `cap` asks for (navigate is asked as read).
Access AccessFor(Cap cap);
// What "allow" gives: read and navigate always, and the access's own capability.
std::vector<Cap> Allowed(Access access);
// What "deny" takes: every capability for read (nothing there without
// reading), else the access's own capability.
std::vector<Cap> Denied(Access access);
// "read", "read and act on", "run JavaScript on", "download from": the
// question's verb ("<client> wants to <verb> github.com").
std::string_view Verb(Access access);

// The site a question names and an answer is kept for: the URL's site as
// Site::Describe writes it, with the port even when it is the scheme's own
// for a local host (localhost, *.localhost, an IP address) — a pattern
// without a port matches every port, and "Always" for one local server must
// not grant them all. "" for a URL without a host.
std::string GrantSite(std::string_view url);

// A rule that is a kept grant: one site, allow only.
bool IsGrant(const Rule& rule);

// Adds allow `caps` for `site` (a pattern, e.g. "github.com",
// "localhost:8080") to the file at `path`: merged into the site's grant rule
// if it has one, else a new rule at the end. A file that does not exist is
// created as {"default": "ask", "rules": [...]} (a file without "default"
// would allow every other site). A malformed file is left alone: the error
// says so. Written whole to a temporary file, then renamed over the old.
// Returns the rule as the file now has it ("sites github.com; allow read, navigate").
std::expected<std::string, std::string> AddGrant(const std::string& path, std::string_view site,
                                                 const std::vector<Cap>& caps);
// Takes the grant rules of `site` out of the file (rules the person wrote
// otherwise stay). Returns whether there was one.
std::expected<bool, std::string> RemoveGrant(const std::string& path, std::string_view site);

}  // namespace tb::policy
