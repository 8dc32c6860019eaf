// What happened after an action: withEffects runs it and watches the tab.
// Used by every act tool (click, type, …, handle_dialog) and the page's form
// tools (form_tool_call.js).

import { describeDialog, onDialog } from '../../worker/dialogs.js';
import { watchTopFrame } from './navigated_to.js';
import { sleep } from '../stack/time.js';

const NAV_WAIT_MS = 10000;

// Runs act(), then watches the tab for settleMs (longer while a navigation it
// started is loading). Returns {value, effects: [phrases], navigated, dialog,
// navigatedTo} (navigatedTo: the URL of the new top document, or of the one
// still loading, for the result's _meta — navResult). recheckSite (the
// call's ctx.recheckSite, page_tool.js) runs right before act: a tab that
// left the site the call was checked for is not acted on.
export async function withEffects(tabId, act, { settleMs = 150, signal, recheckSite } = {}) {
  const ev = { navUrl: null, committed: null, loaded: false, navError: null, sameDoc: null, newTabs: [], dialog: null };
  const top = (d) => d.tabId === tabId && d.frameId === 0;
  const L = [
    [chrome.webNavigation.onBeforeNavigate, (d) => { if (top(d)) Object.assign(ev, { navUrl: d.url, loaded: false, navError: null }); }],
    [chrome.webNavigation.onCommitted, (d) => { if (top(d)) ev.committed = d.url; }],
    [chrome.webNavigation.onDOMContentLoaded, (d) => { if (top(d)) ev.loaded = true; }],
    [chrome.webNavigation.onErrorOccurred, (d) => { if (top(d)) ev.navError = d.error; }],
    [chrome.webNavigation.onHistoryStateUpdated, (d) => { if (top(d)) ev.sameDoc = d.url; }],
    [chrome.webNavigation.onReferenceFragmentUpdated, (d) => { if (top(d)) ev.sameDoc = d.url; }],
    [chrome.tabs.onCreated, (t) => { if (t.openerTabId === tabId) ev.newTabs.push(t); }],
  ];
  for (const [event, fn] of L) event.addListener(fn);
  const offDialog = onDialog(tabId, (d) => { ev.dialog = d; });
  let nav = null;
  try {
    nav = await watchTopFrame(tabId);
    await recheckSite?.();
    const value = await act();
    if (value?.dialog) ev.dialog = value.dialog;
    const deadline = Date.now() + NAV_WAIT_MS;
    const settleEnd = Date.now() + settleMs;
    while (!ev.dialog && !signal?.aborted) {
      const now = Date.now();
      const navPending = ev.navUrl && !ev.loaded && !ev.navError;
      if (now >= settleEnd && !navPending) break;
      if (now >= deadline) break;
      await sleep(25);
    }
    const effects = [];
    if (ev.dialog) effects.push(`dialog opened: ${describeDialog(ev.dialog)} — call handle_dialog`);
    if (ev.committed) {
      const tab = await chrome.tabs.get(tabId).catch(() => null);
      const url = tab?.url || ev.committed;
      effects.push(`navigated to ${url}${tab?.title && tab.title !== url ? ` (${tab.title})` : ''}${ev.loaded || ev.dialog ? '' : ' (still loading)'}`);
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
    return { value, effects, navigated: !!(ev.committed || ev.navUrl), dialog: ev.dialog, navigatedTo: await nav.navigatedTo() };
  } finally {
    for (const [event, fn] of L) event.removeListener(fn);
    offDialog();
    nav?.dispose();
  }
}
