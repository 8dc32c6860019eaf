// The page agent's pointer checks: which point of an element the pointer can
// really reach (a hit test through shadow roots and this document's
// same-origin frames), what covers it where it cannot, and what the page saw
// of the call's trusted input (a capture listener armed for the call).
(function (agent) {
  'use strict';

  const { labelsOf, shadowOf, styleOf, winOf } = agent.dom;
  const { ensure } = agent.registry;

  // The element at (x, y) of doc's viewport, inside open and closed shadow roots.
  function deepHit(doc, x, y) {
    let hit = doc.elementFromPoint(x, y);
    for (let i = 0; hit && i < 20; i++) {
      const inner = shadowOf(hit)?.elementFromPoint?.(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }

  // The nearest element or shadow host, walking out of shadow roots.
  const up = (n) => n.parentElement || n.getRootNode()?.host || null;

  // Does a pointer on h reach el? h is el, inside it (its shadow tree
  // included), one of its labels, or the <select> of an <option>.
  function reaches(el, h) {
    if (!h) return false;
    if (el.localName === 'option' && h === el.closest('select')) return true;
    const labels = labelsOf(el);
    for (let n = h, i = 0; n && i < 200; n = up(n), i++) {
      if (n === el || labels.includes(n)) return true;
    }
    return false;
  }

  // How an error names the element in the way: tag, id, two classes
  // ("div.modal-backdrop"), and its text when it has a little.
  function coverName(h) {
    const cls = typeof h.className === 'string' ? h.className.trim().split(/\s+/).filter(Boolean).slice(0, 2) : [];
    let name = `${h.localName}${h.id ? `#${h.id}` : ''}${cls.map((c) => `.${c}`).join('')}`;
    name = agent.text.cut(name, 60);
    const text = (h.innerText || '').replace(/\s+/g, ' ').trim();
    return text && text.length <= 40 ? `${name} "${text}"` : name;
  }

  // Points to try in a box, in order: its centre, then across it (inset from
  // the edges), clipped to the viewport (w × h).
  function candidates(box, w, h) {
    const l = Math.max(box.x, 0);
    const t = Math.max(box.y, 0);
    const r = Math.min(box.x + box.width, w);
    const b = Math.min(box.y + box.height, h);
    if (r <= l || b <= t) return [];
    const at = (fx, fy) => [l + (r - l) * fx, t + (b - t) * fy];
    const fr = [0.5, 0.25, 0.75, 0.1, 0.9];
    const out = [];
    for (const fy of fr) for (const fx of fr) out.push(at(fx, fy));
    out.sort((p, q) => Math.hypot(p[0] - (l + r) / 2, p[1] - (t + b) / 2) - Math.hypot(q[0] - (l + r) / 2, q[1] - (t + b) / 2));
    return out;
  }

  // Up through the same-origin frames this document is in: does the point
  // (in el's own viewport) land in each frame's <iframe> in its parent?
  // Returns the element in the way, or null.
  function frameCover(el, x, y) {
    let win = winOf(el);
    let p = { x, y, width: 0, height: 0 };
    while (win !== window && win.frameElement) {
      const fe = win.frameElement;
      p = agent.geometry.intoParent(fe, p);
      const hit = deepHit(fe.ownerDocument, p.x, p.y);
      if (hit !== fe && !(hit && fe.contains(hit))) return hit ?? fe.ownerDocument.documentElement;
      win = winOf(fe);
    }
    return null;
  }

  // Where to point at el whose box (in its own viewport) is box:
  // {x, y} (its viewport) | {cover: name of what is in the way, passThrough?:
  // the CSS that lets the pointer through el}.
  function aim(el, box) {
    const doc = el.ownerDocument;
    const w = doc.defaultView;
    let first = null;
    for (const [x, y] of candidates(box, w.innerWidth, w.innerHeight)) {
      const hit = deepHit(doc, x, y);
      if (reaches(el, hit)) {
        const outer = frameCover(el, x, y);
        if (!outer) return { x, y };
        first ??= outer;
      } else first ??= hit;
    }
    if (!first) return { cover: 'the edge of the window (it is outside the visible page)' };
    // The pointer falls through el to what is under it: el itself takes none.
    const st = styleOf(el);
    if (st.visibility !== 'visible') return { cover: coverName(first), passThrough: 'visibility: hidden' };
    if (first.contains?.(el) && st.pointerEvents === 'none') return { cover: coverName(first), passThrough: 'pointer-events: none' };
    return { cover: coverName(first) };
  }

  // Does the pointer at (x, y) of this window's viewport reach el — through
  // this document's same-origin frames to el's? (press_point.js asks when the
  // browser's hit test found another node than at the aim: a hover may have
  // drawn the target's inside anew.)
  function reachesAt(el, x, y) {
    let doc = document;
    let p = { x, y };
    for (let i = 0; i < 10; i++) {
      const hit = deepHit(doc, p.x, p.y);
      const inner = (hit?.localName === 'iframe' || hit?.localName === 'frame') ? hit.contentDocument : null;
      if (!inner) return reaches(el, hit);
      const r = hit.getBoundingClientRect();
      const st = styleOf(hit);
      p = { x: p.x - r.left - hit.clientLeft - parseFloat(st.paddingLeft || 0), y: p.y - r.top - hit.clientTop - parseFloat(st.paddingTop || 0) };
      doc = inner;
    }
    return false;
  }

  // ---- what the page saw of the call's input --------------------------------

  const WATCHED = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'contextmenu', 'dblclick',
    'mousemove', 'mouseover', 'wheel', 'keydown', 'beforeinput', 'input'];
  const MAX_EVENTS = 40;

  // Arms the watch for el: the trusted events of WATCHED that reach its
  // window from now on, and whether each reached el. (One listener per window
  // and type, in our isolated world, capturing at the window: the first place
  // an event goes.)
  function watch(el, startAt) {
    const reg = ensure(startAt);
    reg.watch = { el, events: [] };
    const win = winOf(el);
    reg.watchWins ??= new WeakSet();
    if (!reg.watchWins.has(win)) {
      reg.watchWins.add(win);
      const onEvent = (e) => {
        const w = reg.watch;
        if (!w || !e.isTrusted || w.events.length >= MAX_EVENTS) return;
        const path = e.composedPath();
        const t = e.target;
        const el = t?.nodeType === 1;
        w.events.push({
          type: e.type,
          reached: path.some((n) => n.nodeType === 1 && reaches(w.el, n)),
          // On an element around it, below <body>: a scroller it is in (a wheel
          // turn is aimed at where the element was before the scroll moved it).
          around: el && t !== t.ownerDocument.body && t !== t.ownerDocument.documentElement && t.contains(w.el),
          on: el ? coverName(t) : String(t?.nodeName || 'window').toLowerCase(),
          t: performance.now(),
        });
        w.wake?.();
      };
      for (const type of WATCHED) win.addEventListener(type, onEvent, { capture: true, passive: true });
    }
  }

  // seen {kinds?, waitMs?} -> {events: [{type, reached, around, on}], gone} (and the
  // watch ends) | {none: true} (nothing armed in this document: a new one).
  // Waits up to waitMs for a first event of kinds: a mouse move or a wheel
  // turn reaches the page at its next frame, after the browser acknowledged it.
  function seen(a = {}) {
    const reg = agent.registry.current();
    const w = reg?.watch;
    if (!w) return { none: true };
    const done = () => {
      if (reg.watch === w) reg.watch = null;
      return { events: w.events, gone: !w.el.isConnected };
    };
    const kinds = a.kinds ?? [];
    const has = () => w.events.some((e) => kinds.includes(e.type));
    if (!a.waitMs || has()) return done();
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(done()), a.waitMs);
      w.wake = () => {
        if (!has()) return;
        clearTimeout(timer);
        resolve(done());
      };
    });
  }

  // The op: {ref|selector, x, y} -> {reaches} | {error}.
  function reachesAtOp(a) {
    const res = agent.registry.resolve(a);
    if (res.error) return res;
    return { reaches: reachesAt(res.el, a.x, a.y) };
  }

  agent.pointer = { deepHit, reaches, coverName, aim, watch, seen, reachesAtOp };
})(globalThis.__tabbridgeAgent ??= {});
