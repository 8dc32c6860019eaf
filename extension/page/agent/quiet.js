// The page agent's wait for an action's effects: until the document has gone
// quietMs without a DOM change (a click handler's promise chain, a re-render),
// at most maxMs (a page that animates forever). The worker runs it right after
// the input, so the changes the handler made synchronously are already done.
(function (agent) {
  'use strict';

  function quiet(a) {
    const quietMs = Math.max(1, a.quietMs ?? 20);
    const maxMs = Math.max(quietMs, a.maxMs ?? 1000);
    return new Promise((resolve) => {
      const start = performance.now();
      let last = start;
      let mutations = 0;
      const observer = new MutationObserver((records) => {
        last = performance.now();
        mutations += records.length;
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      const check = () => {
        const now = performance.now();
        if (now - last >= quietMs || now - start >= maxMs) {
          observer.disconnect();
          resolve({ mutations, waitedMs: Math.round(now - start) });
        } else {
          setTimeout(check, Math.min(quietMs - (now - last), maxMs - (now - start)) + 1);
        }
      };
      setTimeout(check, quietMs);
    });
  }

  agent.quiet = { quiet };
})(globalThis.__tabbridgeAgent ??= {});
