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

  // The <label>s of a labelable element, in document order, as el.labels has
  // them. Not through el.labels: Blink answers it from a live list over the
  // whole document, so it costs O(elements) a call, and a snapshot of 10,000
  // checkboxes took minutes. Here: the wrapping label, and the labels whose
  // for= names the element's id, from an index built once per task (the
  // agent's ops are synchronous; the next microtask drops it).
  let forIndex = null; // root node -> id -> [label]
  function labelsFor(root, id) {
    forIndex ??= new Map();
    if (!forIndex.size) queueMicrotask(() => { forIndex = null; });
    let byId = forIndex.get(root);
    if (!byId) {
      byId = new Map();
      for (const l of root.querySelectorAll('label[for]')) {
        const key = l.getAttribute('for');
        if (!byId.has(key)) byId.set(key, []);
        byId.get(key).push(l);
      }
      forIndex.set(root, byId);
    }
    return byId.get(id) ?? [];
  }

  const FOLLOWING = 4; // Node.DOCUMENT_POSITION_FOLLOWING
  const LABELABLE = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);
  function labelsOf(el) {
    if (el.localName.includes('-')) return [...(el.labels ?? [])]; // a form-associated custom element
    if (!LABELABLE.has(el.localName) || (el.localName === 'input' && inputType(el) === 'hidden')) return [];
    const found = [];
    const wrap = el.closest('label');
    if (wrap && wrap.control === el) found.push(wrap);
    if (el.id) {
      const root = el.getRootNode();
      for (const l of labelsFor(root, el.id)) if (l !== wrap && l.control === el) found.push(l);
    }
    if (found.length > 1) found.sort((a, b) => (a.compareDocumentPosition(b) & FOLLOWING ? -1 : 1));
    return found;
  }

  agent.dom = { SKIP, shadowOf, styleOf, winOf, inputType, deepQuery, allFrameEls, labelsOf };
})(globalThis.__tabbridgeAgent ??= {});
