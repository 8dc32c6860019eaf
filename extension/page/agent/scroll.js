// The page agent's scroll op: where a wheel moves the page or an element's
// scroller, and scrolling to a position or an element into view.
(function (agent) {
  'use strict';

  const { styleOf, winOf } = agent.dom;
  const { resolve } = agent.registry;
  const { describe } = agent.names;

  // {dx?, dy?}: which scroller a wheel there moves and where it is now (the
  // service worker sends the trusted wheel and reads it again: read);
  // {to: {x?, y?}}: scrolls the page, or the element's scroller, to that
  // position; a target alone is scrolled into view.
  function scrollOp(a) {
    const dx = a.dx || 0;
    const dy = a.dy || 0;
    const to = a.to;
    const pos = (sc, w) => {
      const top = Math.round(sc.scrollTop);
      const max = Math.max(0, Math.round(sc.scrollHeight - (w ? w.innerHeight : sc.clientHeight)));
      const edge = top <= 0 ? ' (top)' : top >= max - 1 ? ' (bottom)' : '';
      return `y=${top} of ${max}${edge}${sc.scrollLeft ? `, x=${Math.round(sc.scrollLeft)}` : ''}`;
    };
    const answer = (sc, w, what) => ({ what, at: pos(sc, w), x: Math.round(sc.scrollLeft), y: Math.round(sc.scrollTop),
      viewport: { width: window.innerWidth, height: window.innerHeight } });
    const page = (doc) => answer(doc.scrollingElement || doc.documentElement, doc.defaultView, 'the page');
    const moveTo = (sc, w) => {
      const where = { left: to.x ?? sc.scrollLeft, top: to.y ?? sc.scrollTop, behavior: 'instant' };
      if (w) w.scrollTo(where);
      else sc.scrollTo(where);
    };
    const scrollable = (n) => {
      const st = styleOf(n);
      const y = (to ? to.y !== undefined : dy) && /(auto|scroll|overlay)/.test(st.overflowY) && n.scrollHeight > n.clientHeight;
      const x = (to ? to.x !== undefined : dx) && /(auto|scroll|overlay)/.test(st.overflowX) && n.scrollWidth > n.clientWidth;
      return y || x;
    };
    if (!a.ref && !a.selector) {
      if (to) moveTo(document.scrollingElement || document.documentElement, window);
      // Where a wheel moves the page: a point over no inner scroller or frame.
      const w = window.innerWidth;
      const h = window.innerHeight;
      const free = ([x, y]) => {
        for (let n = document.elementFromPoint(x, y); n && n.nodeType === 1; n = n.parentElement || n.getRootNode()?.host || null) {
          if (n === document.documentElement || n === document.body) return true;
          if (n.localName === 'iframe' || n.localName === 'frame' || scrollable(n)) return false;
        }
        return true;
      };
      const spots = [[0.5, 0.5], [0.5, 0.2], [0.5, 0.8], [0.15, 0.5], [0.85, 0.5], [0.15, 0.15], [0.85, 0.85], [0.85, 0.15], [0.15, 0.85]]
        .map(([fx, fy]) => [Math.round(w * fx), Math.round(h * fy)]);
      const [px, py] = spots.find(free) ?? spots[0];
      return { ...page(document), point: { x: px, y: py } };
    }
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const desc = describe(el);
    if (!dx && !dy && !to) {
      el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      return { text: `scrolled ${desc} into view` };
    }
    // The centre of the element's visible part (clipped by its ancestors and
    // the viewport), relative to its box: where a wheel over it lands on it.
    const box = el.getBoundingClientRect();
    const vis = { l: Math.max(box.left, 0), t: Math.max(box.top, 0), r: Math.min(box.right, winOf(el).innerWidth), b: Math.min(box.bottom, winOf(el).innerHeight) };
    for (let p = el.parentElement; p; p = p.parentElement) {
      const st = styleOf(p);
      if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
      const pr = p.getBoundingClientRect();
      Object.assign(vis, { l: Math.max(vis.l, pr.left), t: Math.max(vis.t, pr.top), r: Math.min(vis.r, pr.right), b: Math.min(vis.b, pr.bottom) });
    }
    const visible = vis.r > vis.l && vis.b > vis.t ? { x: (vis.l + vis.r) / 2 - box.left, y: (vis.t + vis.b) / 2 - box.top } : null;
    let n = el;
    while (n && n.nodeType === 1 && !scrollable(n)) n = n.parentElement || n.getRootNode()?.host || null;
    const doc = el.ownerDocument;
    if (!n || n === doc.documentElement || n === doc.body) {
      const sc = doc.scrollingElement || doc.documentElement;
      if (to) moveTo(sc, doc.defaultView);
      return { ...page(doc), what: `the page (${desc} has no scrollable container)`, visible };
    }
    if (to) moveTo(n, null);
    return { ...answer(n, null, n === el ? desc : `${describe(n)} (around ${desc})`), visible };
  }

  agent.scroll = { scrollOp };
})(globalThis.__tabbridgeAgent ??= {});
