// Waiting for a tab's top document to be there: committed (a new tab starts
// on an empty document while its URL loads) and parsed (DOMContentLoaded).
// open_tab answers only then (tabs.js); snapshot and read_page read a page
// still loading only once it is parsed, or say so (tools/shared/page_ready.js).
// Every wait is on an event, within a deadline.

import { withTimeout } from './time.js';

// How long snapshot and read_page wait for a page still loading before they
// read what it has (and say so).
export const READ_LOAD_WAIT_MS = 5_000;

// Watches every tab's top-frame loads from now on; until(tabId, ms) resolves
// {parsed, error?} once tabId's document committed since the watch began and
// reached DOMContentLoaded (parsed: true), its load failed (error: the net
// error; the tab shows an error page), or ms passed (parsed: false).
// Register before creating the tab: its events may come before its id.
export function watchTopLoads() {
  const state = new Map(); // tabId -> {parsed, error}
  const waiters = new Set();
  const top = (d) => d.frameId === 0;
  const at = (tabId) => {
    if (!state.has(tabId)) state.set(tabId, { parsed: false, error: null });
    return state.get(tabId);
  };
  const wake = () => { for (const w of [...waiters]) w(); };
  const listeners = [
    [chrome.webNavigation.onCommitted, (d) => { if (top(d)) Object.assign(at(d.tabId), { parsed: false, error: null }); wake(); }],
    [chrome.webNavigation.onDOMContentLoaded, (d) => { if (top(d)) at(d.tabId).parsed = true; wake(); }],
    [chrome.webNavigation.onErrorOccurred, (d) => { if (top(d)) at(d.tabId).error = d.error; wake(); }],
  ];
  for (const [event, fn] of listeners) event.addListener(fn);
  return {
    until(tabId, ms) {
      return new Promise((resolve) => {
        let timer = null;
        const check = () => {
          const s = state.get(tabId);
          if (!s || (!s.parsed && !s.error)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve({ parsed: s.parsed, error: s.error });
        };
        waiters.add(check);
        timer = setTimeout(() => { waiters.delete(check); resolve({ parsed: false }); }, Math.max(0, ms));
        check();
      });
    },
    dispose() {
      for (const [event, fn] of listeners) event.removeListener(fn);
      waiters.clear();
    },
  };
}

// In the document: resolves true once it is parsed, false after ms.
function parsedIn(ms) {
  if (document.readyState !== 'loading') return true;
  return new Promise((resolve) => {
    document.addEventListener('DOMContentLoaded', () => resolve(true), { once: true });
    setTimeout(() => resolve(false), ms);
  });
}

// For a read of the tab's page: waits (up to ms) for a navigation the tab has
// started to commit, then for the document shown to be parsed. Resolves true
// when it is, false when it is still loading at the deadline (or cannot be
// asked: the read then says what it can).
export async function topDocumentParsed(tabId, ms) {
  const deadline = Date.now() + ms;
  const watch = watchTopLoads();
  try {
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (!tab) return true; // gone: the read answers that
    if (tab.pendingUrl && tab.pendingUrl !== tab.url) {
      const r = await watch.until(tabId, deadline - Date.now());
      if (r.parsed || r.error) return true;
      if (Date.now() >= deadline) return false;
    }
    const left = Math.max(0, deadline - Date.now());
    const [res] = await withTimeout(chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] }, world: 'ISOLATED', injectImmediately: true, func: parsedIn, args: [left],
    }), left + 500, 'the page load check');
    return res?.result !== false;
  } catch (e) {
    return !/timed out/.test(e?.message ?? ''); // no answer in time: still loading (or hung)
  } finally {
    watch.dispose();
  }
}
