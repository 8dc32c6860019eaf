// The page agent's DOM helpers: shadow roots (open and closed), computed
// styles, the window of an element, deep selector queries, every frame element.
(function (agent) {
  'use strict';

  // Elements whose content is never shown.
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'base', 'param', 'source', 'track', 'datalist']);

  // chrome.dom reaches closed shadow roots too (isolated world only).
  const shadowOf = (el) => {
    try {
      return globalThis.chrome?.dom?.openOrClosedShadowRoot?.(el) ?? el.shadowRoot;
    } catch {
      return el.shadowRoot;
    }
  };
  const styleOf = (el) => el.ownerDocument.defaultView.getComputedStyle(el);
  const winOf = (el) => el.ownerDocument.defaultView;
  const inputType = (el) => (el.getAttribute('type') || '').toLowerCase();

  // The first element matching sel, looking into shadow roots too.
  function deepQuery(root, sel) {
    const found = root.querySelector(sel);
    if (found) return found;
    for (const el of root.querySelectorAll('*')) {
      const sr = shadowOf(el);
      if (sr) {
        const f = deepQuery(sr, sel);
        if (f) return f;
      }
    }
    return null;
  }

  // Every <iframe>/<frame> of this document, its shadow roots and the
  // same-origin frames inside it.
  function allFrameEls(root = document, out = []) {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName === 'iframe' || el.localName === 'frame') {
        out.push(el);
        try {
          if (el.contentDocument) allFrameEls(el.contentDocument, out);
        } catch { /* cross-origin */ }
      }
      const sr = shadowOf(el);
      if (sr) allFrameEls(sr, out);
    }
    return out;
  }

  agent.dom = { SKIP, shadowOf, styleOf, winOf, inputType, deepQuery, allFrameEls };
})(globalThis.__tabbridgeAgent ??= {});
