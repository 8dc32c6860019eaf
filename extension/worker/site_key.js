// The extension's half of the policy (docs/protocol.md "The policy, checked
// twice"): the host's policy (common/policy.cpp) decides which sites a call
// may touch and names the URL it approved as params.policyUrl; this module
// only compares that URL's site with the one the tab shows when the call runs.
//
//   siteKey(url)                     -> the string two URLs of one site share
//   tabUrl(tab)                      -> the URL the tab's page is on (as toTab reports it)
//   isOnSite(tab, policyUrl)         -> whether the tab shows the site policyUrl is on (true without one)
//   assertOnSite(tab, policyUrl)     -> throws RpcError PAGE_MOVED {data: {url}} when the tab left the site
//   sameSite(url, policyUrl)         -> whether what was recorded on `url` may be shown (true without a policyUrl)

import { ErrorCode, RpcError } from './protocol.js';

// An origin, when the URL has one; every file: URL is one site; a URL without
// an origin (data:, about:blank, …) only matches itself, fragment aside; a
// blob: URL belongs to the site of the URL inside it.
export function siteKey(url) {
  const text = String(url ?? '');
  let u;
  try {
    u = new URL(text);
  } catch {
    return text.replace(/#.*$/s, '');
  }
  if (u.protocol === 'file:') return 'file:';
  if (u.protocol === 'blob:') return siteKey(u.pathname);
  if (u.origin !== 'null') return u.origin;
  u.hash = '';
  return u.href;
}

// The committed URL: the document a script or an input event reaches is the
// committed one, whatever the tab may be loading. pendingUrl stands in only
// while nothing has committed (a new tab), as in the host's Tab (tabs.js).
export const tabUrl = (tab) => tab?.url || tab?.pendingUrl || '';

export const isOnSite = (tab, policyUrl) =>
  typeof policyUrl !== 'string' || !tab || siteKey(tabUrl(tab)) === siteKey(policyUrl);

export function assertOnSite(tab, policyUrl) {
  if (isOnSite(tab, policyUrl)) return;
  const url = tabUrl(tab);
  throw new RpcError(ErrorCode.PAGE_MOVED, `the tab is now on ${url}, not on the site this call was checked for`, { url });
}

// Logs kept across navigations (console_logs, network_errors) show only what
// pages of the approved site recorded: an earlier page may be on a site the
// policy keeps from the session.
export const sameSite = (url, policyUrl) => typeof policyUrl !== 'string' || siteKey(url) === siteKey(policyUrl);
