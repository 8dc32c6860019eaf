// Console capture, relay (ISOLATED world, document_start, every frame; see
// manifest.json): takes the entries console_main.js dispatches in the page and
// sends them, batched per task, to the service worker (console_capture.js).
// A classic script, not a module.

(() => {
  const ENTRY_EVENT = 'tabbridge:console-entry:v1';
  const READY_EVENT = 'tabbridge:console-ready:v1';
  const PING_EVENT = 'tabbridge:console-ping:v1';
  const MAX_BATCH = 100;

  // After an extension update the previous relay in this world is orphaned
  // (its chrome.runtime is gone): replace it; a live one stays.
  const previous = globalThis.__tabbridgeConsoleRelay;
  if (previous?.alive()) return;
  previous?.stop();

  let batch = [];
  let scheduled = false;
  let stopped = false;

  const alive = () => !stopped && !!chrome.runtime?.id;

  function flush() {
    scheduled = false;
    if (!batch.length) return;
    const entries = batch;
    batch = [];
    if (!alive()) {
      stop();
      return;
    }
    try {
      chrome.runtime.sendMessage({ type: 'tabbridge.console', entries }).catch(() => {});
    } catch {
      stop(); // "Extension context invalidated"
    }
  }

  function onEntry(e) {
    if (stopped || typeof e.detail !== 'string') return;
    let entry;
    try {
      entry = JSON.parse(e.detail);
    } catch {
      return;
    }
    batch.push(entry);
    // One message per task: a microtask, not a timer (hidden tabs delay timers by up to a second).
    if (batch.length >= MAX_BATCH) flush();
    else if (!scheduled) {
      scheduled = true;
      queueMicrotask(flush);
    }
  }

  const announce = () => window.dispatchEvent(new CustomEvent(READY_EVENT));

  function stop() {
    stopped = true;
    window.removeEventListener(ENTRY_EVENT, onEntry);
    window.removeEventListener(PING_EVENT, announce);
    window.removeEventListener('pagehide', flush);
  }

  window.addEventListener(ENTRY_EVENT, onEntry);
  window.addEventListener(PING_EVENT, announce);
  window.addEventListener('pagehide', flush); // do not lose the last batch to a navigation
  globalThis.__tabbridgeConsoleRelay = { alive, stop };
  announce();
})();
