// Elements our isolated world picked for a trusted press (ISOLATED world, top
// frame, document_start; before buttons_isolated.js and results_isolated.js,
// which pick): a button tool's button, a result list's item. The worker gets
// a token, and the page agent's resolve (agent/registry.js `picked`) gives
// back that very element: the press aims at it, not at whatever a selector
// finds once the page has moved things around. The page's scripts cannot
// reach this world's objects, so they can neither read nor swap a pick.
(() => {
  'use strict';
  // (Not just truthy: an element with that id is a window property too.)
  if (typeof globalThis.__tabbridgePicks?.pick === 'function') return;
  try {
    const MAX_PICKS = 32; // a call uses its pick at once: older ones are let go
    const picks = new Map();
    // Random, not counted: a token is never one another document of the tab
    // handed out too (a page that came since must not resolve it).
    const random = crypto.getRandomValues.bind(crypto);
    const pick = (el) => {
      const token = `p${[...random(new Uint32Array(4))].map((n) => n.toString(36)).join('')}`;
      picks.set(token, new WeakRef(el));
      if (picks.size > MAX_PICKS) picks.delete(picks.keys().next().value);
      return token;
    };
    const picked = (token) => picks.get(token)?.deref() ?? null;
    globalThis.__tabbridgePicks = Object.freeze({ pick, picked });
  } catch { /* never throw into the page */ }
})();
