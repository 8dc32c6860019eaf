// The page's own tools, relay (ISOLATED world, top frame of http(s) pages,
// document_start; see manifest.json): takes each WebMCP tool list
// own_tools_main.js dispatches in the page, adds the form tools
// forms_isolated.js, the result-list tools results_isolated.js and the
// button tools buttons_isolated.js (this world) found, and sends the list to the service worker (own_tools.js). The
// page can dispatch a list itself: what comes from its world is only ever a
// WebMCP tool, run by the page — an entry that claims to be a form or
// result-list tool is relabelled, and those come from this world alone
// (docs/policy.md "Threat model");
// when the service worker asks (it restarted, or a document came back from
// the back/forward cache) it has the page report its list again.
// The document's first report waits until its tools are all found: the
// document is parsed, the page's world has listed its WebMCP tools since, and
// where the browser lists <form toolname> itself (native WebMCP: a moment
// after the parse, issue 41) it lists each of them — or DISCOVERY_CAP_MS
// after the parse (LOADING_CAP_MS after the start for a document that is
// still loading then). Until then nothing is reported: an agent is offered the
// page's tools once, in their final form (never first our reading of a form
// the browser then registers, nor a form read half-parsed).
// It also holds the `tabbridge.alive` port open: the service worker hears it
// close when this page goes, which is how it notices a renderer crash
// (crash_watch.js). Reopened when the worker asks (a new worker has no ports).
// A classic script, not a module.

(() => {
  if (window !== window.top) return;
  const LIST_EVENT = 'tabbridge:owntools-list:v1';
  const READY_EVENT = 'tabbridge:owntools-ready:v1';
  const PING_EVENT = 'tabbridge:owntools-ping:v1';

  // After an extension update the previous relay in this world is orphaned
  // (its chrome.runtime is gone): replace it; a live one stays.
  const previous = globalThis.__tabbridgeOwnToolsRelay;
  if (previous?.alive()) return;
  previous?.stop();

  const ALIVE_PORT = 'tabbridge.alive';
  const OUR_SOURCES = new Set(['form', 'declarative', 'results', 'buttons']);
  const WEBMCP_APIS = new Set(['native', 'polyfill', 'legacy']);
  // generated: constants MAX_REPORTED_TOOLS
  const MAX_REPORTED_TOOLS = 256;
  // end generated (codegen/generate.mjs, from common/protocol.h)
  const DISCOVERY_CAP_MS = 1000;
  const LOADING_CAP_MS = 3000;
  const forms = globalThis.__tabbridgeForms ?? null;
  const results = globalThis.__tabbridgeResults ?? null;
  const buttons = globalThis.__tabbridgeButtons ?? null;
  let main = null; // the page's last WebMCP list: {api, native, parsed, total, tools}
  // The service worker's resend request the page's next list answers (a
  // number it waits for: open_tab and navigate answer once that list is in).
  let resendToken = null;
  // Whether this document's tools were all found (its first report went); the
  // cap ends the wait for them.
  let discovered = false;
  let capped = false;
  let capTimer = null;

  let stopped = false;
  let port = null;
  const alive = () => !stopped && !!chrome.runtime?.id;

  function connectAlive() {
    if (port || !alive()) return;
    try {
      port = chrome.runtime.connect({ name: ALIVE_PORT });
      port.onDisconnect.addListener(() => {
        port = null; // the worker stopped, or this page went into the back/forward cache
      });
    } catch {
      port = null; // "Extension context invalidated"
    }
  }

  function onList(e) {
    if (stopped || typeof e.detail !== 'string') return;
    let list;
    try {
      list = JSON.parse(e.detail);
    } catch {
      return;
    }
    if (!list || typeof list !== 'object') return;
    const tools = Array.isArray(list.tools) ? list.tools.filter((t) => t && typeof t === 'object') : [];
    const api = WEBMCP_APIS.has(list.api) ? list.api : null;
    // The page's world speaks for WebMCP only.
    for (const t of tools) if (OUR_SOURCES.has(t.source) || !WEBMCP_APIS.has(t.source)) t.source = api ?? 'native';
    main = {
      api, native: list.native === true, parsed: list.parsed === true,
      total: Number.isInteger(list.total) ? list.total : tools.length, tools,
    };
    // Where the browser lists <form toolname> itself, those are WebMCP tools.
    const declared = declaredNames();
    forms?.setNativeDeclarative(api === 'native' || tools.some((t) => declared.includes(t.name)));
    report({ answers: true });
  }

  function declaredNames() {
    try {
      return [...document.querySelectorAll('form[toolname]')].map((f) => (f.getAttribute('toolname') ?? '').trim()).filter(Boolean);
    } catch {
      return [];
    }
  }

  // Whether the document's tools are all found (the header says when).
  function allFound() {
    if (capped) return true;
    if (document.readyState === 'loading' || !main?.parsed) return false;
    if (!main.native) return true;
    const listed = new Set(main.tools.map((t) => t.name));
    return declaredNames().every((name) => listed.has(name));
  }

  function armCap(ms) {
    clearTimeout(capTimer);
    capTimer = setTimeout(() => {
      capped = true;
      report();
    }, ms);
  }
  const onParsed = () => { if (!discovered) armCap(DISCOVERY_CAP_MS); };

  // The page's WebMCP tools, then our form, result-list and button tools
  // whose names are free. `answers`: a list of the page's world, which
  // answers a resend request (as does the document's first report).
  function report({ answers = false } = {}) {
    if (stopped) return;
    if (!alive()) {
      stop();
      return;
    }
    let first = false;
    if (!discovered) {
      if (!allFound()) return;
      discovered = first = true;
      clearTimeout(capTimer);
    }
    const resent = answers || first ? resendToken : null;
    if (resent !== null) resendToken = null;
    const tools = [...(main?.tools ?? [])];
    const names = new Set(tools.map((t) => t.name));
    let total = main?.total ?? 0;
    // Buttons are guessed only where the page offers no WebMCP tools: one that does said what an agent may do.
    const guessButtons = !(main?.tools.length > 0);
    for (const d of [...(forms?.list() ?? []), ...(results?.list() ?? []), ...(guessButtons ? buttons?.list() ?? [] : [])]) {
      if (names.has(d.name)) continue;
      names.add(d.name);
      total++;
      tools.push({ name: d.name, source: d.source, description: d.description, inputSchema: d.inputSchema, readOnly: d.readOnly });
    }
    try {
      chrome.runtime.sendMessage({
        type: 'tabbridge.owntools',
        api: main?.api ?? null,
        native: main?.native === true,
        total,
        tools: tools.slice(0, MAX_REPORTED_TOOLS),
        ...(resent !== null ? { resent } : {}),
      }).catch(() => {});
    } catch {
      stop(); // "Extension context invalidated"
    }
  }

  // Tells the page the relay listens; the page answers with its list.
  const announce = () => window.dispatchEvent(new CustomEvent(READY_EVENT));

  function onMessage(msg, sender, sendResponse) {
    if (msg?.type !== 'tabbridge.owntools.resend' || sender.id !== chrome.runtime.id) return;
    connectAlive();
    if (Number.isInteger(msg.token)) resendToken = msg.token;
    announce();
    sendResponse({ ok: true });
  }

  // A document restored from the back/forward cache was cleared by the
  // service worker when it committed; say its list again.
  function onPageShow(e) {
    if (!e.persisted) return;
    connectAlive();
    announce();
  }

  function stop() {
    stopped = true;
    try {
      port?.disconnect();
    } catch { /* context gone */ }
    port = null;
    window.removeEventListener(LIST_EVENT, onList);
    window.removeEventListener(PING_EVENT, announce);
    window.removeEventListener('pageshow', onPageShow);
    document.removeEventListener('DOMContentLoaded', onParsed);
    clearTimeout(capTimer);
    try {
      chrome.runtime.onMessage.removeListener(onMessage);
    } catch { /* context gone */ }
  }

  window.addEventListener(LIST_EVENT, onList);
  forms?.onChange(() => report());
  results?.onChange(() => report());
  buttons?.onChange(() => report());
  if (document.readyState === 'loading') {
    armCap(LOADING_CAP_MS);
    document.addEventListener('DOMContentLoaded', onParsed, { once: true });
  } else {
    armCap(DISCOVERY_CAP_MS);
  }
  window.addEventListener(PING_EVENT, announce);
  window.addEventListener('pageshow', onPageShow);
  chrome.runtime.onMessage.addListener(onMessage);
  globalThis.__tabbridgeOwnToolsRelay = { alive, stop };
  connectAlive();
  announce();
})();
