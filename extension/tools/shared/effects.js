// What happened after an action: withEffects runs it and watches the tab.
// Used by every act tool (click, type, …, handle_dialog) and the page's form
// tools (form_tool_call.js).

import { onDialog } from '../../worker/dialogs.js';
import { dialogRead } from '../stack/dialog_reads.js';
import { titleRead } from '../stack/reads.js';
import { watchTopFrame } from './navigated_to.js';
import { fetchesSettled } from '../../worker/network_log.js';
import { framePrefix, judgeReached, runAgent, SEEN_WAIT_MS } from './targets.js';
import { noteNext } from './refs.js';
import { textChangesClause } from './text_changes.js';

const NAV_WAIT_MS = 10000;
// After an input whose effect the page does not show at once, the page must
// go this long without a DOM change before its effects are read — a render
// in the next frame, a handler's promise chain (page/agent/effects_wait.js:
// one that changed the DOM of a page quiet until then is read at once).
const QUIET_MS = 20;
// A page that never stops changing (an animation, a ticking clock).
const QUIET_MAX_MS = 1000;
// fetch/XHR requests the action started: their answers usually change the page.
const FETCH_WAIT_MS = 5000;

// Runs act(), then waits for its effects, each an event rather than a fixed
// time: a dialog (done at once); the page of frameId (a number, or a function
// asked after act) settled (page/agent/effects_wait.js; quietMs 0: not read,
// for scroll); the fetch/XHR requests it started finished (then settled
// again); a navigation it started loaded (its DOMContentLoaded, or error),
// up to NAV_WAIT_MS. minWaitMs: wait at least that long for a navigation to
// show up (a form submit handled by script may start one late).
// Returns {value, effects: [phrases], navigated, navFailed, dialog, navigatedTo, after}
// (navigatedTo: the URL of the new top document, or of the one still loading,
// for the result's _meta — navResult). recheckSite (the call's
// ctx.recheckSite, page_tool.js) runs right before act: a tab that left the
// site the call was checked for is not acted on.
//
// The page's side is read in one call (page/agent/changes.js `after`): the
// settling, the reached check of a pointer action (act's value.reach: {loc,
// kinds, what}, clickAt's deferReach: judged as assertReached would), the
// target's state (`target`: a located element, {frameId, args}) and the
// actionable elements the action brought, told as an effect with their refs
// (`appeared: button "OK" [ref=e41], …`). The change watch is armed before
// act (`armed`: locate's prepare already did, in the target's frame).
// Returns `after`: {state?, gone?} of the target, for afterState.
// overlapSiteCheck: act(siteChecked) awaits the site check itself before its
// first input (clickAt), measuring meanwhile. texts (a click, a press of the
// page's button or result tools): the page also reads the text the action
// changed and the target's new name (page/agent/text_changes.js), told as
// `text changed: …` (text_changes.js) and by afterState.
export async function withEffects(tabId, act, {
  frameId = 0, quietMs = QUIET_MS, minWaitMs = 0, signal, recheckSite, target = null, armed = false, overlapSiteCheck = false,
  texts = false,
} = {}) {
  const ev = { navUrl: null, committed: null, loaded: false, navError: null, sameDoc: null, newTabs: [], dialog: null };
  // Every event wakes whoever waits on `seen` (below).
  const waiters = new Set();
  let events = 0; // every event counted: an answer computed meanwhile may be out of date
  const note = (fn) => (d) => {
    events++;
    fn(d);
    for (const w of [...waiters]) w();
  };
  const top = (d) => d.tabId === tabId && d.frameId === 0;
  const L = [
    [chrome.webNavigation.onBeforeNavigate, note((d) => { if (top(d)) Object.assign(ev, { navUrl: d.url, loaded: false, navError: null }); })],
    [chrome.webNavigation.onCommitted, note((d) => { if (top(d)) ev.committed = d.url; })],
    [chrome.webNavigation.onDOMContentLoaded, note((d) => { if (top(d)) ev.loaded = true; })],
    [chrome.webNavigation.onErrorOccurred, note((d) => { if (top(d)) ev.navError = d.error; })],
    [chrome.webNavigation.onHistoryStateUpdated, note((d) => { if (top(d)) ev.sameDoc = d.url; })],
    [chrome.webNavigation.onReferenceFragmentUpdated, note((d) => { if (top(d)) ev.sameDoc = d.url; })],
    [chrome.tabs.onCreated, note((t) => { if (t.openerTabId === tabId) ev.newTabs.push(t); })],
  ];
  for (const [event, fn] of L) event.addListener(fn);
  const offDialog = onDialog(tabId, note((d) => { ev.dialog = d; }));
  const aborted = () => signal?.aborted;
  if (signal) signal.addEventListener('abort', note(() => {}), { once: true });
  // Resolves when cond() holds (checked now and on every event) or after ms.
  const seen = (cond, ms) => new Promise((resolve) => {
    let timer = null;
    const check = () => {
      if (!cond()) return;
      waiters.delete(check);
      clearTimeout(timer);
      resolve();
    };
    waiters.add(check);
    timer = setTimeout(() => { waiters.delete(check); resolve(); }, Math.max(0, ms));
    check();
  });
  const navStarted = () => ev.dialog || aborted() || ev.navUrl;
  const navPending = () => ev.navUrl && !ev.loaded && !ev.navError;
  let nav = null;
  try {
    nav = watchTopFrame(tabId);
    const siteChecked = Promise.resolve(recheckSite?.());
    siteChecked.catch(() => {}); // awaited below, or by act (overlapSiteCheck)
    if (!overlapSiteCheck) await siteChecked;
    const watched = quietMs > 0 && typeof frameId === 'number';
    if (watched && !armed) await runAgent(tabId, frameId, 'arm', {}, { timeoutMs: 3000, signal }).catch(() => {});
    const actedAt = Date.now();
    let value;
    try {
      value = await act(siteChecked);
    } catch (e) {
      await siteChecked; // a tab that left the site says so, not what failed because of it
      throw e;
    }
    await siteChecked;
    if (value?.dialog) ev.dialog = value.dialog;
    let after = null;
    let navGuess = null;
    let guessAt = -1;
    if (quietMs > 0 && !navStarted()) {
      // The page's own effects; a navigation or dialog ends the wait (a dialog blocks the page).
      const inFrame = typeof frameId === 'function' ? frameId() : frameId;
      const reach = value?.reach;
      const read = (first) => {
        // After the fetches: what their answers bring is still to be shown.
        const args = {
          ...(target?.args ?? {}), quietMs, maxMs: QUIET_MAX_MS, final: !first, ...(first ? {} : { afterFetches: true }), ...(texts ? { texts } : {}),
        };
        if (first && reach) Object.assign(args, { kinds: reach.kinds, waitMs: SEEN_WAIT_MS });
        const ms = QUIET_MAX_MS + 2000 + (args.waitMs ?? 0);
        return Promise.race([runAgent(tabId, inFrame, 'after', args, { timeoutMs: ms }).catch(() => null), seen(navStarted, ms).then(() => null)]);
      };
      // Where the tab is, asked meanwhile: kept unless an event came since.
      guessAt = events;
      navGuess = nav.navigatedTo();
      navGuess.catch(() => {});
      after = await read(true);
      // An input the page saw land elsewhere is an error, never "clicked" (a
      // navigation or dialog meanwhile: the effects say what happened).
      if (reach && after && !navStarted()) judgeReached(after.seen, reach.loc, reach.kinds, reach.what);
      const fetches = fetchesSettled(tabId, actedAt);
      try {
        if (fetches.busy) await Promise.race([fetches.done, seen(navStarted, FETCH_WAIT_MS)]);
      } finally {
        fetches.dispose();
      }
      // Their answers arrived: let the page show them.
      if (fetches.busy && !navStarted()) after = (await read(false)) ?? after;
    }
    if (minWaitMs > 0) await seen(navStarted, actedAt + minWaitMs - Date.now());
    if (navPending() && !ev.dialog && !aborted()) await seen(() => !navPending() || ev.dialog || aborted(), actedAt + NAV_WAIT_MS - Date.now());
    const effects = [];
    if (ev.dialog) effects.push(`dialog opened: ${dialogRead(tabId, ev.dialog)} — call handle_dialog`);
    if (ev.committed) {
      const tab = await chrome.tabs.get(tabId).catch(() => null);
      const url = tab?.url || ev.committed;
      const title = tab ? titleRead(tabId, tab) : '';
      effects.push(`navigated to ${url}${title && title !== url ? ` (${title})` : ''}${ev.loaded || ev.dialog ? '' : ' (still loading)'}`);
    } else if (ev.navUrl && ev.navError) {
      effects.push(ev.navError === 'net::ERR_ABORTED'
        ? `navigation to ${ev.navUrl} was aborted (a download, or cancelled by the page)`
        : `navigation to ${ev.navUrl} failed: ${ev.navError}`);
    } else if (ev.navUrl) {
      effects.push(`navigation to ${ev.navUrl} started`);
    } else if (ev.sameDoc) {
      effects.push(`URL now ${ev.sameDoc}`);
    }
    // Without its URL: the new tab may be on a site the policy keeps from the
    // session; list_tabs shows it as the policy allows (docs/policy.md).
    for (const created of ev.newTabs) effects.push(`opened new tab ${created.id} (list_tabs shows it)`);
    const navigated = !!(ev.committed || ev.navUrl);
    if (after && !navigated && !ev.dialog) {
      if (texts) effects.push(textChangesClause(after.texts));
      effects.push(await appeared(tabId, typeof frameId === 'function' ? frameId() : frameId, after));
    }
    // navFailed: the navigation it started failed (or was a download) and the page stayed.
    const navFailed = !ev.committed && !!ev.navUrl && !!ev.navError;
    return {
      value, effects: effects.filter(Boolean), navigated, navFailed, dialog: ev.dialog, navigatedTo: await (events === guessAt ? navGuess : nav.navigatedTo()), after,
    };
  } finally {
    for (const [event, fn] of L) event.removeListener(fn);
    waiters.clear();
    offDialog();
    nav?.dispose();
  }
}

// The clause that names what an action brought, refs with the frame's prefix
// (f2e7), or '' for nothing new; the tab's ref counter moves past them.
async function appeared(tabId, frameId, after) {
  if (Number.isInteger(after.next)) await noteNext(tabId, after.next);
  const { lines = [], more = 0 } = after.brought ?? {};
  if (!lines.length) return '';
  const prefix = Number.isInteger(frameId) ? await framePrefix(tabId, frameId) : '';
  const named = prefix ? lines.map((l) => l.replace(/\[ref=(e\d+)\]$/, `[ref=${prefix}$1]`)) : lines;
  return `appeared: ${named.join(', ')}${more ? ` and ${more} more (snapshot shows them)` : ''}`;
}
