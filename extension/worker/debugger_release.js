// When chrome.debugger takes hold of a tab and lets go of it, so that the
// browser's "started debugging this browser" bar does not outstay the agent
// (README "The debugger bar"). The host says which tabs some session is
// focused on (`tabs.focused`, docs/protocol.md). A tab newly focused whose
// site the session may read without asking (the host's `attachAhead`) is
// attached at once, ahead of its first call: the attach, its setup and the
// bar it may bring (debugger_bar.js) happen while the model decides what to
// do, not in its first click (issue 43). Any other waits for a call the
// host let through. A tab is detached
//   * at once when no session is focused on it any more (focus moved, the
//     session ended) and no call uses it;
//   * `idleMs` (DEBUGGER_IDLE_MS) after the last call, when one is;
//   * at once when its renderer crashed.
// An emulated tab stays attached while focused (emulate's overrides end with
// the attach); leaving it detaches at once, which undoes them.
// A tab with an open JavaScript dialog stays attached until the dialog closes:
// handle_dialog needs the attach, and CDP would not report the dialog again.
// The next call attaches again; the attach hooks (Page.enable, focus
// emulation, auto-attach) set up what the tools need. Console and network
// capture do not use the debugger.

import { DEBUGGER_IDLE_MS, Notification } from './protocol.js';
import { registerNotification } from './native_port.js';
import { attach, attachedTabs, detach, inUse, isAttached, onCdpEvent, onDetach, onIdle, releaseOrphans } from './cdp.js';
import { dialogOf, dialogsRestored } from './dialogs.js';
import { onTabCrashed } from './crash_watch.js';
import { emulations } from './tab_state.js';

let focused = null; // Set of tabIds, once the host said
let ahead = new Set(); // the focused tabs to attach ahead of their first call
// Tabs attached ahead that no call has used since: one the host takes out of
// `ahead` (its page went to a site the session may not read without asking,
// a grant was revoked) is let go at once — it got the debugger only on the
// promise of that site.
const unused = new Set();
let idleMs = DEBUGGER_IDLE_MS;
const timers = new Map(); // tabId -> timeout

// An emulated tab (tools/emulate.js) keeps its attach while some session is
// focused on it: the overrides end with the attach, and the agent expects
// them until it leaves the tab.
const emulatedAndFocused = (tabId) => emulations.has(tabId) && (!focused || focused.has(tabId));
const mayDetach = (tabId) => isAttached(tabId) && !inUse(tabId) && !dialogOf(tabId) && !emulatedAndFocused(tabId);

function reconsider(tabId) {
  clearTimeout(timers.get(tabId));
  timers.delete(tabId);
  if (!mayDetach(tabId)) return;
  const delay = (focused && !focused.has(tabId)) || (unused.has(tabId) && !ahead.has(tabId)) ? 0 : idleMs;
  timers.set(tabId, setTimeout(() => {
    timers.delete(tabId);
    if (mayDetach(tabId)) detach(tabId);
  }, delay));
}

function onFocused({ tabIds, attachAhead: aheadIds, idleMs: ms }) {
  const before = ahead;
  if (Array.isArray(tabIds)) focused = new Set(tabIds.filter(Number.isInteger));
  ahead = new Set(Array.isArray(aheadIds) ? aheadIds.filter((id) => Number.isInteger(id) && focused?.has(id)) : []);
  if (Number.isInteger(ms) && ms > 0) idleMs = ms;
  for (const tabId of attachedTabs()) reconsider(tabId);
  for (const tabId of ahead) if (!before.has(tabId) && !isAttached(tabId)) attachAhead(tabId);
}

// A tab that cannot be attached (a chrome:// page, another debugger on it)
// is left alone: its first call says why.
function attachAhead(tabId) {
  unused.add(tabId);
  attach(tabId).then(() => reconsider(tabId), () => unused.delete(tabId));
}

// Must run synchronously at the service worker's top level.
export function registerDebuggerRelease() {
  registerNotification(Notification.TABS_FOCUSED, onFocused);
  onIdle((tabId) => {
    unused.delete(tabId); // a call used it: the host let that call through
    reconsider(tabId);
  });
  onDetach((tabId) => unused.delete(tabId));
  onCdpEvent('Page.javascriptDialogClosed', (tabId) => reconsider(tabId));
  onTabCrashed((tabId) => detach(tabId));
  // A previous worker's attaches: released, unless a dialog needs them.
  releaseOrphans(dialogsRestored()).then(() => { for (const tabId of attachedTabs()) reconsider(tabId); });
}
