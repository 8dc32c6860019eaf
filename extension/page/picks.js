// Elements our isolated world picked for a trusted press (ISOLATED world, top
// frame, document_start; before buttons_isolated.js and results_isolated.js,
// which pick): a button tool's button, a result list's item. The worker gets
// a token, and the page agent's resolve (agent/registry.js `picked`) gives
// back that very element: the press aims at it, not at whatever a selector
// finds once the page has moved things around. The page's scripts cannot
// reach this world's objects, so they can neither read nor swap a pick.
(() => {
  'use strict';
  if (globalThis.__tabbridgePicks) return;
  try {
    const MAX_PICKS = 32; // a call uses its pick at once: older ones are let go
    const picks = new Map();
    let serial = 0;
    const pick = (el) => {
      const token = `p${++serial}`;
      picks.set(token, new WeakRef(el));
      if (picks.size > MAX_PICKS) picks.delete(picks.keys().next().value);
      return token;
    };
    const picked = (token) => picks.get(token)?.deref() ?? null;
    globalThis.__tabbridgePicks = Object.freeze({ pick, picked });
  } catch { /* never throw into the page */ }
})();
