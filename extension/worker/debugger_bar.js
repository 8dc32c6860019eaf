// The browser's "tabbridge started debugging this browser" bar, and the
// viewport it takes away.
//
// The bar is shown on every tab while any tab has our debugger attached, and
// stays about BAR_LINGER_MS after the last one is let go (debugger_release.js).
// It arrives ~150 ms *after* chrome.debugger.attach resolves and shrinks the
// page's viewport (56 px in headless Chromium 14x), so an element measured in
// between is aimed at with a point the page no longer shows: a click on the
// last row of a list landed below the shrunken viewport, on <html>
// (issue 18: 1 in 3 first clicks in a fresh tab; 10 in 10 in a fresh browser).
// A tab the browser shows gets the new size at once; a background tab keeps
// its size until it is shown.
//
// So an attach that brings the bar (none of ours was attached, and the last
// went away long enough ago) marks the tab; barSettled(tabId) — called before
// measuring for a pointer action — waits for the shown tab's size to change,
// up to BAR_WAIT_MS after the attach. A tab is attached when a session
// focuses it (debugger_release.js), so the wait is mostly over before the
// first click is asked for. A tab attached in the background and shown since
// has its new size already: the change counts.
//
// A browser that shows no bar costs no wait: one a shim launched, started
// with --silent-debugger-extension-api (the host says so, NO_DEBUGGER_BAR),
// kept for the browser's run (storage.session) so a restarted worker knows
// too. A wait that ran out teaches nothing: the bar of an attach made just
// as Chrome took the last one down comes late (page_landing's tries).

import { onAttach, onDetach, attachedTabs } from './cdp.js';
import { registerNotification } from './native_port.js';
import { Notification } from './protocol.js';
import { sleep } from './time.js';

// Chrome removes the bar 5 s after the last detach; a little less, so that a
// re-attach within it is taken for "no bar coming" only when surely still up.
const BAR_LINGER_MS = 4_500;
// Longest wait for the bar after an attach (it took 130-210 ms here).
const BAR_WAIT_MS = 1_000;
const POLL_MS = 25;

const NO_BAR_KEY = 'debuggerBar.none';

// When one of our attaches last went away. Every detach of an attach that was
// done counts: focus moving from tab A to tab B attaches B while A is let go,
// and the bar A brought is still up when B's attach is done. Not one the
// person ended with the bar's Cancel: that takes the bar down at once.
let lastDetachAt = -Infinity;
const done = new Set(); // tabs whose attach was set up (their hooks ran)
const pending = new Map(); // tabId -> {since, width, height}: the bar may still be on its way
// Whether this browser shows no bar (known: true), read once from storage.session.
let noBar = chrome.storage.session.get(NO_BAR_KEY).then((v) => v?.[NO_BAR_KEY] === true, () => false);
// What the last waits did, for diagnostics (tests/e2e/launch.test.mjs): 'no-bar', 'resized', 'left', 'timed-out'.
const outcomes = [];
globalThis.__tabbridgeBarWaits = outcomes;

function knowNoBar() {
  noBar = Promise.resolve(true);
  pending.clear();
  chrome.storage.session.set({ [NO_BAR_KEY]: true }).catch(() => {});
}

// Must run synchronously at the service worker's top level.
export function registerDebuggerBar() {
  registerNotification(Notification.NO_DEBUGGER_BAR, knowNoBar);
}

// The size from before the attach: the hooks before this one may take as
// long as the bar (with the tab focused, the attach runs beside other work).
onAttach((tabId, send, { sessionId, before }) => {
  if (sessionId || !before) return;
  done.add(tabId);
  const others = attachedTabs().filter((id) => id !== tabId);
  if (others.length > 0 || before.at - lastDetachAt < BAR_LINGER_MS) return;
  pending.set(tabId, { since: before.at, width: before.tab.width, height: before.tab.height });
});

onDetach((tabId, reason) => {
  pending.delete(tabId);
  if (done.delete(tabId) && reason !== 'canceled_by_user') lastDetachAt = Date.now();
});

// Resolves once the bar an attach brought has reached tabId's viewport (its
// size changed), or BAR_WAIT_MS after the attach; at once for every other tab.
export async function barSettled(tabId, signal) {
  const p = pending.get(tabId);
  if (!p) return;
  if (await noBar) {
    pending.delete(tabId);
    return note('no-bar');
  }
  let outcome = null;
  while (!outcome) {
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (!tab || !tab.active) outcome = 'left';
    else if (tab.width !== p.width || tab.height !== p.height) outcome = 'resized';
    else if (Date.now() - p.since >= BAR_WAIT_MS || signal?.aborted) outcome = 'timed-out';
    else await sleep(POLL_MS);
  }
  pending.delete(tabId);
  note(outcome);
}

function note(outcome) {
  outcomes.push(outcome);
  if (outcomes.length > 20) outcomes.shift();
}
