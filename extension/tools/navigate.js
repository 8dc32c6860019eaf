// navigate {url?, action?: back|forward|reload, waitUntil?, timeoutMs?}:
// starts the navigation with chrome.tabs, follows the tab's main frame through
// chrome.webNavigation until waitUntil (DOMContentLoaded, load, or load plus
// 500 ms without requests in flight), and answers the final URL, title and the
// HTTP status of the main document (webRequest, else the page's Navigation
// Timing entry). Every step is reported as page.progress.
//
// It answers what really happened: loaded (or reloaded, for the URL the tab
// already showed), moved on by the page's own script (where it ended up), a
// 204 or a download (the page stayed where it was), or still loading at the
// deadline (what the tab shows). The answer is sent within the call's budget
// (ctx.deadline): the wait ends FINAL_READ_MS before it, for the final read.
// A new document's own tools reach the host before the answer (at most
// OWN_TOOLS_WAIT_MS more), so its list_changed comes first.
// When the tab got a new document (a reload too) or is still loading one, the
// answer's _meta says where (navigated_to.js), failures included.

import { cdp } from '../worker/cdp.js';
import { isAgentUrl } from '../worker/protocol.js';
import { dialogOf, onDialog } from '../worker/dialogs.js';
import { dialogRead } from './stack/dialog_reads.js';
import { titleRead } from './stack/reads.js';
import { watchResponses } from './shared/nav_responses.js';
import { inflightRequests, mainFrameStatus, waitNetworkIdle } from '../worker/network_log.js';
import { chromeErrorKind, HUNG_ADVICE, tabGone, ToolError } from './stack/errors.js';
import { inject, mainResult } from './stack/inject.js';
import { pageTool } from './stack/page_tool.js';
import { progressReporter } from './stack/progress.js';
import { dataResult, errorResult } from './stack/results.js';
import { getTab } from './stack/tab.js';
import { withNavigatedTo } from './shared/navigated_to.js';
import { tabUrl } from '../worker/site_key.js';
import { OWN_TOOLS_WAIT_MS, ownToolsHeard } from '../worker/own_tools_heard.js';

const DEFAULT_TIMEOUT_MS = 30000;
const ABORT_GRACE_MS = 300; // an aborted navigation may just have been replaced by another
const FINAL_READ_MS = 1500; // reserved at the end of the budget for reading what the tab shows
const STEPS = { domcontentloaded: 3, load: 4, networkidle: 5 };
const VERB = { back: 'went back to', forward: 'went forward to', reload: 'reloaded' };

async function navigateTool(tabId, { url, action, waitUntil = 'load', timeoutMs = DEFAULT_TIMEOUT_MS }, ctx) {
  const { tab } = ctx;
  if ((url === undefined) === (action === undefined)) {
    throw new ToolError('give exactly one of url (where to go) or action ("back", "forward" or "reload")');
  }
  const shown = tab.url || tab.pendingUrl || '';
  const target = url !== undefined ? resolveUrl(url, shown) : null;
  const report = progressReporter(ctx);
  const total = STEPS[waitUntil] ?? STEPS.load;
  const what = target ?? action;
  report(0, total, target ? `navigating to ${target}` : `${action}…`);

  const startedAt = Date.now();
  const deadline = ctx.deadline ?? Infinity;
  const waitMs = Math.max(0, Math.min(timeoutMs, deadline - startedAt - FINAL_READ_MS));
  const watch = watchNavigation(tabId, { report, total, startedAt });
  const responses = watchResponses(tabId);
  try {
    try {
      if (target) await chrome.tabs.update(tabId, { url: target });
      else if (action === 'reload') await chrome.tabs.reload(tabId);
      else await goInHistory(tabId, action);
    } catch (e) {
      const m = String(e?.message ?? e);
      if (chromeErrorKind(e) === 'tabGone') throw tabGone(tabId);
      if (/cannot find a next page in history/i.test(m)) {
        throw new ToolError(`cannot go ${action}: this tab has no ${action === 'back' ? 'previous' : 'next'} page in its history`);
      }
      if (/file url|local file/i.test(m)) {
        throw new ToolError(`cannot open ${target}: file URLs need "Allow access to file URLs" in the extension's settings`);
      }
      throw new ToolError(`cannot navigate to ${what}: ${m}`);
    }
    const outcome = await watch.until(waitUntil, waitMs, ctx.signal, responses);
    // A new document, parsed: the answer waits for its own tools to reach the
    // host, which tells the session of the navigation once, before it.
    const state = outcome.state;
    if (state?.committed && state.dcl && !state.sameDocument && !outcome.error && !outcome.timedOut) {
      await ownToolsHeard(tabId, Math.min(OWN_TOOLS_WAIT_MS, deadline - Date.now() - FINAL_READ_MS));
    }
    const again = target !== null && stripHash(target) === stripHash(shown);
    const movedTo = await landedOn(tabId, outcome);
    try {
      return withNavigatedTo(await answer(tabId, { action, target, again, outcome, startedAt, waitUntil, waitMs, deadline }), movedTo);
    } catch (e) {
      if (e instanceof ToolError) return withNavigatedTo(errorResult(e.message), movedTo);
      throw e;
    }
  } finally {
    watch.dispose();
    responses.dispose();
  }
}

// navigate reloads a crashed tab.
export const tool = pageTool(navigateTool, { onCrashedTab: true, name: 'navigate' });

// chrome.tabs.goBack skips entries Chrome deems "skippable" (a page the user
// never interacted with — every page an agent opened): then the history entry
// itself is taken through CDP.
async function goInHistory(tabId, action) {
  try {
    await (action === 'back' ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId));
    return;
  } catch (e) {
    if (!/cannot find a next page in history/i.test(e.message)) throw e;
  }
  const { currentIndex, entries } = await cdp(tabId, 'Page.getNavigationHistory');
  const entry = entries[currentIndex + (action === 'back' ? -1 : 1)];
  if (!entry) throw new Error('Cannot find a next page in history.');
  await cdp(tabId, 'Page.navigateToHistoryEntry', { entryId: entry.id });
}

function resolveUrl(url, base) {
  let parsed = null;
  try {
    parsed = new URL(url);
  } catch {
    if (/^(\/|\.\.?\/|\?|#)/.test(url) && /^(https?|file):/.test(base)) {
      parsed = new URL(url, base);
    } else if (/^[\w-]+(\.[\w-]+)+(:\d+)?(\/|$)/.test(url)) {
      throw new ToolError(`"${url}" has no scheme: give https://${url} (or ./${url} for a path relative to this page)`);
    } else {
      throw new ToolError(`"${url}" is not a URL: give an absolute URL such as https://example.com/ or a path starting with /`);
    }
  }
  // Only where the agent's tabs may be (isAgentUrl): a tab sent to about:blank would drop out of list_tabs.
  if (!isAgentUrl(parsed.href)) {
    throw new ToolError(`cannot navigate to "${url}": use an http, https or file URL (the pages the agent works on)`);
  }
  return parsed.href;
}

// Follows the tab's main-frame navigations from now on. until() resolves with
// {state, chain} once waitUntil is reached, {state, error, why?} when the
// navigation ended without a page, and {timedOut: true, state} at the
// deadline; a closed tab rejects. chain: every navigation started meanwhile,
// [{url, committed}] (more than one: the page or a redirect by script moved on).
function watchNavigation(tabId, { report, total, startedAt }) {
  let nav = null; // the latest main-frame navigation: {url, committed, dcl, load, error?, sameDocument?}
  const chain = [];
  let wake = () => {};
  let tabClosed = false;
  const isMain = (d) => d.tabId === tabId && d.frameId === 0 && d.documentLifecycle !== 'prerender';
  const on = (event, fn) => {
    const listener = (d) => {
      if (!isMain(d)) return;
      fn(d);
      wake();
    };
    event.addListener(listener);
    return () => event.removeListener(listener);
  };
  const offs = [
    on(chrome.webNavigation.onBeforeNavigate, (d) => {
      if (d.timeStamp < startedAt) return; // began before this call (its event came late)
      nav = { url: d.url, started: true, committed: false, dcl: false, load: false };
      chain.push(nav);
      report(1, total, 'loading'); // no URLs: a redirect hop may be a site the policy denies
    }),
    on(chrome.webNavigation.onCommitted, (d) => {
      // Back/forward from the back-forward cache commits without onBeforeNavigate.
      if (!nav || nav.committed) chain.push(nav = { url: d.url, started: true, dcl: false, load: false });
      nav.committed = true;
      nav.url = d.url;
      // An abort seen before this commit was another navigation's (one this replaced).
      delete nav.error;
      report(2, total, 'committed');
    }),
    on(chrome.webNavigation.onDOMContentLoaded, () => {
      if (!nav?.committed) return; // the previous document's
      nav.dcl = true;
      report(3, total, 'DOMContentLoaded');
    }),
    on(chrome.webNavigation.onCompleted, () => {
      if (!nav?.committed) return;
      nav.dcl = nav.load = true;
      report(4, total, 'load');
    }),
    on(chrome.webNavigation.onErrorOccurred, (d) => {
      if (!nav) return;
      // net::ERR_ABORTED for another URL: an older navigation this one replaced.
      if (d.error === 'net::ERR_ABORTED' && d.url !== nav.url) return;
      nav.error = { error: d.error, url: d.url, at: Date.now() };
    }),
    ...[chrome.webNavigation.onHistoryStateUpdated, chrome.webNavigation.onReferenceFragmentUpdated].map((ev) =>
      on(ev, (d) => {
        // pushState while a cross-document navigation loads is part of that one.
        if (nav && nav.started && !nav.load && !nav.sameDocument) {
          nav.url = d.url;
          return;
        }
        nav = { url: d.url, started: true, committed: true, dcl: true, load: true, sameDocument: true };
        report(4, total, 'same-document navigation');
      })),
  ];
  const onRemoved = (id) => {
    if (id !== tabId) return;
    tabClosed = true;
    wake();
  };
  chrome.tabs.onRemoved.addListener(onRemoved);
  // beforeunload (or an alert while loading) holds the navigation: seen when CDP is attached.
  offs.push(onDialog(tabId, () => wake()));

  function reached(waitUntil) {
    if (!nav) return false;
    if (waitUntil === 'domcontentloaded') return nav.dcl || nav.load;
    return nav.load;
  }

  async function until(waitUntil, timeoutMs, signal, responses) {
    const deadline = Date.now() + timeoutMs;
    const done = (extra) => ({ state: nav ? { ...nav } : null, chain: chain.map((n) => ({ url: n.url, committed: !!n.committed })), ...extra });
    for (;;) {
      if (tabClosed) throw tabGone(tabId);
      if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
      const dialog = dialogOf(tabId);
      if (dialog) return done({ dialog });
      const now = Date.now();
      if (nav?.error) {
        // A real failure shows an error page at once. An abort is a 204 or a
        // download (the responses say so), or another navigation replaced it —
        // one still loading (the tab says so) goes on being watched.
        if (nav.error.error !== 'net::ERR_ABORTED') return done({ error: nav.error });
        const why = responses.explain(nav.error.url);
        if (why?.kind === 'no-content') return done({ error: nav.error, why });
        if (now - nav.error.at >= ABORT_GRACE_MS) {
          if (why) return done({ error: nav.error, why });
          const tab = await chrome.tabs.get(tabId).catch(() => null);
          if (tab?.status === 'loading') {
            delete nav.error;
            continue;
          }
          return done({ error: nav.error });
        }
      } else if (reached(waitUntil)) {
        if (waitUntil !== 'networkidle') return done();
        const idle = await idleOrTimeout(tabId, deadline - now, signal);
        if (tabClosed) throw tabGone(tabId);
        // A new navigation (a redirect by script) may have started meanwhile.
        if (reached(waitUntil) && !nav.error) {
          if (idle) {
            report(5, total, 'network idle');
            return done();
          }
          return done({ timedOut: true, inflight: inflightRequests(tabId) });
        }
        continue;
      }
      if (now >= deadline) return done({ timedOut: true, inflight: inflightRequests(tabId) });
      const wait = Math.min(deadline - now, nav?.error ? ABORT_GRACE_MS : 1000);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, wait);
        const onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
        wake = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
      });
      wake = () => {};
    }
  }

  return {
    until,
    dispose() {
      for (const off of offs) off();
      chrome.tabs.onRemoved.removeListener(onRemoved);
    },
  };
}

async function idleOrTimeout(tabId, ms, signal) {
  if (ms <= 0) return false;
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer;
  try {
    return await Promise.race([
      waitNetworkIdle(tabId, { signal: abort.signal }).then(() => true),
      new Promise((resolve) => { timer = setTimeout(() => resolve(false), ms); }),
    ]);
  } finally {
    clearTimeout(timer);
    abort.abort();
    signal?.removeEventListener('abort', onAbort);
  }
}

// URL, title and HTTP status of what the tab shows now. The page is read at
// once (not at document_idle, which a page still loading never reaches) and
// only until the call's deadline; the tab's own URL and title stand in.
async function pageFacts(tabId, startedAt, deadline = Infinity) {
  const tab = await getTab(tabId);
  let facts = null;
  let unresponsive = false;
  try {
    const timeoutMs = Math.max(100, Math.min(2000, deadline - Date.now() - 300));
    facts = mainResult(await inject(tabId, {
      frameIds: [0],
      injectImmediately: true,
      timeoutMs,
      func: () => {
        const entry = performance.getEntriesByType('navigation')[0];
        return { url: location.href, title: document.title, status: entry?.responseStatus || null };
      },
      readUrl: (r) => r?.url,
    }));
  } catch (e) {
    // An error page or a page extensions may not script — or a page hung in a script.
    unresponsive = /did not answer within/.test(e?.message);
  }
  const fromNetwork = mainFrameStatus(tabId, startedAt - 1000);
  const url = facts?.url || tab.url || tab.pendingUrl || '';
  const sameUrl = fromNetwork && stripHash(fromNetwork.url) === stripHash(url);
  return {
    url,
    title: facts?.title ?? titleRead(tabId, tab),
    status: (sameUrl ? fromNetwork.status : null) ?? facts?.status ?? null,
    unresponsive,
  };
}

const stripHash = (u) => String(u).replace(/#.*$/, '');

// The top document the navigation left the tab with, when it is another one:
// the URL of a cross-document navigation still loading, else (one committed
// during the call) what the tab shows now. Same-document steps and a
// navigation that failed or was aborted before committing leave it null.
async function landedOn(tabId, { state, chain = [] }) {
  if (state && !state.sameDocument && !state.committed && !state.error) return state.url;
  if (!chain.some((n) => n.committed)) return null;
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  return tabUrl(tab) || null;
}

const titled = (f) => `${f.url}${f.title ? ` ("${f.title}")` : ''}`;

async function answer(tabId, { action, target, again, outcome, startedAt, waitUntil, waitMs, deadline }) {
  const what = target ?? action;
  if (outcome.dialog) {
    throw new ToolError(`navigate (${what}) is held by ${dialogRead(tabId, outcome.dialog)}: answer it with handle_dialog ` +
      `(${outcome.dialog.type === 'beforeunload' ? 'accept: true leaves the page and the navigation goes on' : 'then wait_for or read_page'})`);
  }
  if (outcome.error) {
    const { error, url } = outcome.error;
    if (error === 'net::ERR_ABORTED') {
      const now = await pageFacts(tabId, startedAt, deadline).catch(() => null);
      const stayed = `the page stayed at ${now ? titled(now) : 'its previous page'}`;
      if (outcome.why?.kind === 'no-content') {
        throw new ToolError(`the server answered ${outcome.why.status} ${outcome.why.status === 204 ? 'No Content' : 'Reset Content'} ` +
          `for ${url} — ${stayed}`);
      }
      if (outcome.why?.kind === 'download') {
        throw new ToolError(`the URL started a download (${outcome.why.name}) — ${stayed}. The browser saves it to its downloads ` +
          'folder; to fetch a file and get its path, use download_file (tabbridge --caps download)');
      }
      throw new ToolError(`the navigation to ${url} was cancelled before a page loaded (by the page, another navigation ` +
        `or the browser) — ${stayed}`);
    }
    throw new ToolError(`navigation to ${url} failed: ${error} — check the URL and that the server is up, then navigate again`);
  }
  const facts = await pageFacts(tabId, startedAt, deadline);
  if (outcome.timedOut) {
    const s = outcome.state;
    const reachedSteps = s ? [s.committed && 'committed', s.dcl && 'DOMContentLoaded', s.load && 'load'].filter(Boolean) : [];
    const where = !s?.committed && facts.unresponsive
      ? `the page it is leaving (${titled(facts)}) is not responding (a script stuck in a loop?), so the navigation cannot go on — ${HUNG_ADVICE}`
      : !s ? `nothing navigated; the tab still shows ${titled(facts)}`
      : reachedSteps.length ? `the page is still loading — it shows ${titled(facts)} (reached ${reachedSteps.join(', ')}, not ${waitUntil})`
        : `still loading: the server has not answered yet; the tab still shows ${titled(facts)}`;
    let busy = '';
    if (outcome.inflight?.length) {
      const urls = outcome.inflight.slice(0, 3).map((r) => r.url).join(', ');
      busy = `; ${outcome.inflight.length} request(s) still in flight (${urls}${outcome.inflight.length > 3 ? ', …' : ''})`;
    }
    throw new ToolError(`navigate (${what}) timed out after ${waitMs} ms waiting for ${waitUntil}: ${where}${busy}. ` +
      'The page may be usable already: try read_page or wait_for, or navigate again with a larger timeoutMs' +
      `${waitUntil === 'domcontentloaded' ? '' : ' or waitUntil "domcontentloaded"'}.`);
  }
  const verb = action ? VERB[action] : again ? 'reloaded' : 'navigated to';
  const status = facts.status ? ` (HTTP ${facts.status})` : '';
  const same = outcome.state?.sameDocument ? ' [same document]' : '';
  // More than one navigation: the page's own script (or a later one) moved on.
  const first = outcome.chain?.[0];
  let moved = '';
  if (target && outcome.chain?.length > 1 && stripHash(facts.url) !== stripHash(target)) {
    moved = first?.committed ? `; the page at ${target} moved on to it by itself while loading`
      : `; the navigation to ${target} was replaced by another before it loaded`;
  }
  const text = `${verb} ${facts.url} — "${facts.title}"${status}${same}${moved}`;
  return dataResult(text, { url: facts.url, title: facts.title, status: facts.status });
}
