// The answer of a press of the page's own tools that took the tab to another
// document: a declarative form (<form toolname toolautosubmit>) whose submit
// navigates, and, since issue 41, a form, button or result-list tool whose
// press does. The WebMCP declarative API (webmachinelearning/webmcp,
// declarative-api-explainer.md, "Getting the form response to the agent")
// answers a declarative form's call with the first
// <script type="application/ld+json"> of the page the form navigated to;
// without one, with the page's contents (the explainer's "probably"; we take
// its visible text). The browser's own executeTool resolves null as the
// navigation starts (web-platform-tests webmcp/declarative/
// executeTool-navigation), and so did we: "returned nothing". Now the call
// waits for the new document to load, within its deadline and its
// cancellation, and answers what that page says (docs/page_tools.md
// "Declarative forms that navigate"). The other tools answer the new page's
// main content (its <main>, its one <article>, else its body without
// navigation, banner, sidebars and footer), cut at MAIN_MAX_CHARS, so the
// model reads the results without another turn (docs/page_tools.md "What a
// press that navigates answers"). Used by own_tools.js (the browser's native
// WebMCP runs the form), form_tool_call.js and press_picked.js (we run it).
//
// The new page may be on another site, and the tab may have gone on from
// where the press sent it (a slow redirect, a script): the text read comes
// with the URL of the document it was read from, taken by the same script
// that read it (location.href: a page can change it within its own origin
// only), and that URL goes to the host in _meta with where the call took the
// tab (navigated_to.js, act.js navResult), which decides every one of them
// (navigate and read) before the model sees any of it, as for a click that
// navigates (docs/policy.md "The policy, checked twice"). Never the URL the
// tab was going to when the press was done: that was issue 42's R1. The text
// names the page by origin and path only: a GET form's query holds what was
// typed.

import { OwnToolLimits } from '../../worker/protocol.js';
import { cutEnd } from '../../worker/text_cut.js';
import { capText } from './own_tools_checks.js';
import { noteRead } from '../stack/reads.js';

// A form the page handled without navigating answers what it did once no
// navigation started this long after the tool's answer (the browser
// schedules the submit's navigation, so it starts after executeTool resolves).
export const NAV_START_MS = 1000;
// Once the new document has parsed (DOMContentLoaded), its load event is
// waited for this long at most: a result page that loads images for ever
// still answers.
const LOAD_GRACE_MS = 2000;
// Between two looks when no navigation event woke us (a missed event must not
// cost the whole deadline).
const LOOK_EVERY_MS = 250;
// Between two questions whether the page prevented a declarative submit, and
// how long it stays prevented before no navigation is taken to come.
const PREVENTED_LOOK_MS = 20;
const PREVENTED_SETTLE_MS = 50;

// What the other tools answer of the new page at most, in characters: enough
// for a page of results, not a whole site's page (read_page reads the rest).
export const MAIN_MAX_CHARS = 8000;

// In the page (ISOLATED world: the page's scripts cannot change what this
// reads with), once it has parsed, with the URL of the document read: for a
// declarative form (mode 'form') its JSON-LD, else its visible text; for the
// others (mode 'main') the text of its main content.
function readInPage(maxChars, mode) {
  const ready = document.readyState;
  const url = location.href;
  if (ready === 'loading') return { ready, url };
  const root = document.body ?? document.documentElement;
  if (mode !== 'main') {
    const ld = document.querySelector('script[type="application/ld+json" i]');
    if (ld) return { ready, url, jsonLd: String(ld.textContent ?? '').slice(0, maxChars + 1) };
    return { ready, url, text: String(root?.innerText ?? '').slice(0, maxChars + 1) };
  }
  const shownEl = (el) => el.checkVisibility?.() !== false;
  const mains = [...document.querySelectorAll('main, [role="main"]')].filter(shownEl);
  const articles = [...document.querySelectorAll('article')].filter((a) => shownEl(a) && !a.parentElement?.closest('article'));
  let parts;
  if (mains.length) parts = [mains.reduce((a, b) => (b.innerText.length > a.innerText.length ? b : a))];
  else if (articles.length === 1) parts = articles;
  else {
    // The body without what frames every page of the site.
    const CHROME = 'nav, aside, footer, header, script, style, noscript, template, [role="navigation"], [role="banner"], ' +
      '[role="contentinfo"], [role="complementary"], [role="search"]';
    parts = [...(root?.children ?? [])].filter((el) => !el.matches(CHROME) && shownEl(el));
  }
  let text = '';
  for (const el of parts) {
    if (text.length > maxChars) break;
    text += `${text ? '\n' : ''}${el.innerText ?? ''}`;
  }
  return { ready, url, text: text.slice(0, maxChars + 1) };
}

// Whether `name` is a declarative form of the document (a <form toolname> of
// that name); false when the document cannot be asked. Asked before the call
// runs: once the form is sent, its document may be gone.
// On such a form it also starts watching the form's next submit, in our
// isolated world (the page cannot reach it): once the submit event has gone
// through every handler, whether the page prevented it — the browser then
// navigates nowhere (submitPrevented).
export async function isDeclarativeForm(tabId, documentId, name) {
  try {
    const [r] = await chrome.scripting.executeScript({
      target: { tabId, documentIds: [documentId] },
      world: 'ISOLATED',
      injectImmediately: true,
      func: (n, key) => {
        const form = [...document.forms].find((f) => f.hasAttribute('toolname') &&
          (f.getAttribute('toolname') === n || f.getAttribute('toolname').replace(/\s+/g, ' ').trim() === n));
        if (!form) return false;
        const seen = (globalThis[key] ??= {});
        seen[n] = null;
        let navigating = false; // a navigation of this document began (a handler's form.submit(), location…)
        globalThis.navigation?.addEventListener('navigate', () => {
          navigating = true;
          seen[n] = false;
        }, { once: true }); // one per call: a page called many times does not gather them
        form.addEventListener('submit', (e) => {
          // After the event's dispatch: every handler has had its say.
          setTimeout(() => { seen[n] = e.defaultPrevented && !navigating; }, 0);
        }, { capture: true, once: true });
        return true;
      },
      args: [name, SUBMIT_KEY],
    });
    return r?.result === true;
  } catch {
    return false;
  }
}

const SUBMIT_KEY = '__tabbridgeSubmits';

// Whether the submit of the declarative form `name` in documentId was
// prevented by the page (true: no navigation comes), let go (false), or not
// yet seen (null; also when the document went).
export async function submitPrevented(tabId, documentId, name) {
  try {
    const [r] = await chrome.scripting.executeScript({
      target: { tabId, documentIds: [documentId] },
      world: 'ISOLATED',
      injectImmediately: true,
      func: (n, key) => globalThis[key]?.[n] ?? null,
      args: [name, SUBMIT_KEY],
    });
    return typeof r?.result === 'boolean' ? r.result : null;
  } catch {
    return null;
  }
}

const siteAndPath = (url) => {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
};

// Watches the tab's top frame from before the call runs (the form's
// navigation can start, even commit, before the tool's answer comes back),
// then read() waits for a document other than `fromDocumentId`, parsed (and
// loaded, or LOAD_GRACE_MS after it parsed), and reads it. read() resolves
// {url, jsonLd | text} (url: the document's that was read, from the script
// that read it); {url, failed: netError}; {url, timedOut} at `until` (ms
// since the epoch) or when `signal` aborts for the deadline (url: where the
// tab is); {cancelled} when it aborts for another reason; {noNavigation}
// when no navigation started within startWithinMs (a form the page handled
// without leaving). mode: 'form' (a declarative form: JSON-LD, else the
// page's text) or 'main' (the text of its main content, MAIN_MAX_CHARS).
// One listener per event for every watch, added at import (as navigated_to.js does).
const watches = new Set();
const toWatches = (fn) => (d) => {
  if (d.frameId !== 0) return;
  for (const w of watches) {
    if (w.tabId !== d.tabId) continue;
    fn(w, d);
    w.events++;
    w.wake?.();
  }
};
chrome.webNavigation.onBeforeNavigate.addListener(toWatches((w) => { w.started = true; w.failed = null; }));
chrome.webNavigation.onCommitted.addListener(toWatches((w) => { w.started = true; }));
chrome.webNavigation.onDOMContentLoaded.addListener(toWatches(() => {}));
chrome.webNavigation.onCompleted.addListener(toWatches(() => {}));
chrome.webNavigation.onErrorOccurred.addListener(toWatches((w, d) => { w.failed = d.error; }));

export function watchResultPage(tabId, fromDocumentId) {
  const st = { tabId, started: false, failed: null, events: 0, wake: null };
  watches.add(st);
  const urlNow = async () => (await chrome.tabs.get(tabId).catch(() => null))?.url ?? '';
  const look = (mode) => chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] },
    world: 'ISOLATED',
    injectImmediately: true,
    func: readInPage,
    args: [mode === 'main' ? MAIN_MAX_CHARS : OwnToolLimits.MAX_RESULT_TEXT_CHARS, mode],
  }).then(([r]) => {
    if (!r || r.documentId === fromDocumentId) return null;
    // What it read, with the URL the same script answered (stack/reads.js).
    if (r.result && r.result.ready !== 'loading') noteRead(tabId, { documentId: r.documentId, url: r.result.url });
    return r.result;
  }, () => null);

  // prevented: () => Promise<true|false|null>, whether the page prevented
  // the submit (submitPrevented): true ends the wait for a navigation at once.
  async function read({ until, signal, startWithinMs = Infinity, mode = 'form', prevented = null }) {
    const startBy = Date.now() + startWithinMs;
    const onAbort = () => {
      st.events++;
      st.wake?.();
    };
    signal?.addEventListener('abort', onAbort);
    let parsedAt = null;
    let preventedSince = null;
    try {
      for (;;) {
        if (signal?.aborted) return signal.reason?.name === 'TimeoutError' ? { url: await urlNow(), timedOut: true } : { cancelled: true };
        const seen = st.events;
        const page = await look(mode);
        if (page) st.started = true;
        if (page && page.ready !== 'loading') {
          parsedAt ??= Date.now();
          if (page.ready === 'complete' || Date.now() - parsedAt >= LOAD_GRACE_MS || Date.now() >= until) {
            // The URL of the document read, never where the tab was going;
            // text without one is never answered (the host could not judge it).
            const url = typeof page.url === 'string' ? page.url : '';
            if (!url) return { url: await urlNow(), timedOut: true };
            return { url, ...(typeof page.jsonLd === 'string' ? { jsonLd: page.jsonLd } : { text: page.text ?? '' }) };
          }
        }
        if (st.failed && !page) return { url: await urlNow(), failed: st.failed };
        if (!st.started && Date.now() >= startBy) return { noNavigation: true, why: 'timer' };
        if (!st.started && prevented) {
          // Prevented, and still so a moment later: a handler that sends the
          // form by script starts its navigation within it.
          if ((await prevented()) === true) preventedSince ??= Date.now();
          else preventedSince = null;
          if (preventedSince !== null && Date.now() - preventedSince >= PREVENTED_SETTLE_MS && !st.started) {
            return { noNavigation: true, why: 'prevented' };
          }
        }
        if (Date.now() >= until) return { url: await urlNow(), timedOut: true };
        if (st.events !== seen) continue; // something happened while we looked
        const waitMs = Math.min(prevented && !st.started ? PREVENTED_LOOK_MS : LOOK_EVERY_MS, until - Date.now(),
          st.started ? Infinity : startBy - Date.now(),
          parsedAt ? parsedAt + LOAD_GRACE_MS - Date.now() : Infinity);
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, waitMs));
          st.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        st.wake = null;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    read,
    dispose: () => watches.delete(st),
  };
}

// The JSON-LD as compact JSON (the page's own text when it is not JSON).
function compactJson(text) {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.trim();
  }
}

// What readResultPage found, as text blocks of the call's answer: first ours
// (where the form went), then the page's.
export function resultPageBlocks(label, page) {
  const where = `${label}: the form was submitted and the tab went to ${siteAndPath(page.url)}`;
  const max = OwnToolLimits.MAX_RESULT_TEXT_CHARS;
  if (page.cancelled) return [{ type: 'text', text: `${label}: the form was submitted; cancelled before its result page was read` }];
  if (page.timedOut) return [{ type: 'text', text: `${where} — its result page did not finish loading in time, so its answer is unknown` }];
  if (page.failed) return [{ type: 'text', text: `${where} — but loading the result page failed (${page.failed})` }];
  if (typeof page.jsonLd === 'string') {
    return [
      { type: 'text', text: `${where}; the result page answers (its JSON-LD):` },
      { type: 'text', text: capText(compactJson(page.jsonLd), max) || '(empty)' },
    ];
  }
  return [
    { type: 'text', text: `${where}; the result page has no JSON-LD — its text:` },
    { type: 'text', text: capText(tidy(page.text), max) || '(the page shows no text)' },
  ];
}

const tidy = (text) => String(text ?? '').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();

// What read({mode: 'main'}) found, as text blocks of the answer of a press
// that navigated (form, button and result-list tools): ours (where the tab
// went), then the page's main content; nothing when no page was read (the
// first block of the answer says where the tab went, or that it is still
// loading, or why it failed).
export function landedPageBlocks(page) {
  if (!page || typeof page.text !== 'string') return [];
  let text = tidy(page.text);
  // The page read holds one character more than the cap when it had more (readInPage).
  if (page.text.length > MAIN_MAX_CHARS || text.length > MAIN_MAX_CHARS) {
    const note = `… (cut at ${MAIN_MAX_CHARS} characters: read_page reads the rest)`;
    text = `${text.slice(0, cutEnd(text, MAIN_MAX_CHARS - note.length))}${note}`;
  }
  return [
    { type: 'text', text: `the tab went to ${siteAndPath(page.url)} — its main content:` },
    { type: 'text', text: text || '(the page shows no text)' },
  ];
}
