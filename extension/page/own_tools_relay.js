// The page's own tools, relay (ISOLATED world, top frame of http(s) pages,
// document_start; see manifest.json): takes each tool list own_tools_main.js
// dispatches in the page and sends it to the service worker (own_tools.js);
// when the service worker asks (it restarted, or a document came back from
// the back/forward cache) it has the page report its list again.
// It also holds the `tabbridge.alive` port open: the service worker hears it
// close when this page goes, which is how it notices a renderer crash
// (crash_watch.js). Reopened when the worker asks (a new worker has no ports).
// A classic script, not a module.

(() => {
  if (window !== window.top) return;
  const LIST_EVENT = 'tabbridge:pagetools-list:v1';
  const READY_EVENT = 'tabbridge:pagetools-ready:v1';
  const PING_EVENT = 'tabbridge:pagetools-ping:v1';

  // After an extension update the previous relay in this world is orphaned
  // (its chrome.runtime is gone): replace it; a live one stays.
  const previous = globalThis.__tabbridgePageToolsRelay;
  if (previous?.alive()) return;
  previous?.stop();

  const ALIVE_PORT = 'tabbridge.alive';

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
    if (!alive()) {
      stop();
      return;
    }
    try {
      chrome.runtime.sendMessage({
        type: 'tabbridge.pagetools',
        api: list.api ?? null,
        native: list.native === true,
        total: list.total,
        tools: list.tools,
      }).catch(() => {});
    } catch {
      stop(); // "Extension context invalidated"
    }
  }

  // Tells the page the relay listens; the page answers with its list.
  const announce = () => window.dispatchEvent(new CustomEvent(READY_EVENT));

  function onMessage(msg, sender, sendResponse) {
    if (msg?.type !== 'tabbridge.pagetools.resend' || sender.id !== chrome.runtime.id) return;
    connectAlive();
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
    try {
      chrome.runtime.onMessage.removeListener(onMessage);
    } catch { /* context gone */ }
  }

  window.addEventListener(LIST_EVENT, onList);
  window.addEventListener(PING_EVENT, announce);
  window.addEventListener('pageshow', onPageShow);
  chrome.runtime.onMessage.addListener(onMessage);
  globalThis.__tabbridgePageToolsRelay = { alive, stop };
  connectAlive();
  announce();
})();
