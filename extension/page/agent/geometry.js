// The page agent's geometry: where an element is in this frame's top-level
// viewport (through same-origin frames), scrolled into view, and the point to
// aim at (pointer.js hit-tests it); whether a mouse move reached it; waiting
// for the compositor to catch up with a scroll.
(function (agent) {
  'use strict';

  const { styleOf, winOf } = agent.dom;
  const { resolve, ensure } = agent.registry;
  const { roleOf } = agent.roles;
  const { describe } = agent.names;
  const { stateOf } = agent.states;

  const firstBox = (el) => {
    for (const r of el.getClientRects()) if (r.width > 0 && r.height > 0) return r;
    return el.getBoundingClientRect();
  };

  // Maps a rect from a same-origin child frame's viewport into its parent's.
  function intoParent(frameEl, r) {
    const fr = frameEl.getBoundingClientRect();
    const st = styleOf(frameEl);
    const sx = frameEl.offsetWidth ? fr.width / frameEl.offsetWidth : 1;
    const sy = frameEl.offsetHeight ? fr.height / frameEl.offsetHeight : 1;
    const left = fr.left + (frameEl.clientLeft + parseFloat(st.paddingLeft)) * sx;
    const top = fr.top + (frameEl.clientTop + parseFloat(st.paddingTop)) * sy;
    return { x: left + r.x * sx, y: top + r.y * sy, width: r.width * sx, height: r.height * sy };
  }

  // Makes sure the centre of rect (in win's viewport) is visible, scrolling
  // frameEl (the element the rect belongs to) into view if needed; returns the
  // (possibly new) rect via recompute().
  function ensureVisible(win, rect, scrollTarget, recompute) {
    const cx = rect.x + rect.width / 2;
    const cy = rect.y + rect.height / 2;
    if (cx >= 0 && cy >= 0 && cx <= win.innerWidth && cy <= win.innerHeight) return rect;
    scrollTarget?.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    let r = recompute();
    const cx2 = r.x + r.width / 2;
    const cy2 = r.y + r.height / 2;
    if (cx2 < 0 || cy2 < 0 || cx2 > win.innerWidth || cy2 > win.innerHeight) {
      win.scrollBy({ left: cx2 - win.innerWidth / 2, top: cy2 - win.innerHeight / 2, behavior: 'instant' });
      r = recompute();
    }
    return r;
  }

  // Is the whole box in win's viewport (or, when larger, its centre)?
  function inView(win, r) {
    const fits = r.width <= win.innerWidth && r.height <= win.innerHeight;
    if (!fits) {
      const cx = r.x + r.width / 2;
      const cy = r.y + r.height / 2;
      return cx >= 0 && cy >= 0 && cx <= win.innerWidth && cy <= win.innerHeight;
    }
    return r.x >= 0 && r.y >= 0 && r.x + r.width <= win.innerWidth && r.y + r.height <= win.innerHeight;
  }

  // Up through same-origin frames (inline in this document's registry): the
  // rect in the top viewport, each frame scrolled to show it (scroll !== false).
  function toTop(el, local, scroll) {
    let rect = local;
    let win = winOf(el);
    while (win !== window) {
      const fe = win.frameElement;
      if (!fe) break;
      const inner = rect;
      rect = intoParent(fe, inner);
      const w = winOf(fe);
      if (scroll) rect = ensureVisible(w, rect, fe, () => intoParent(fe, inner));
      win = w;
    }
    return scroll ? ensureVisible(window, rect, null, () => rect) : rect;
  }

  // Whether el may be moving: a running animation or transition on it or on
  // an element around it (through shadow roots and this document's
  // same-origin frames), or a document still loading (images, fonts, late
  // scripts lay it out anew). Script-driven motion shows in neither: the
  // press check at the press (press_point.js) and the reached check catch it.
  function mayMove(el) {
    const around = new Set();
    for (let n = el, i = 0; n && i < 500; i++) {
      around.add(n);
      n = n.parentElement || n.getRootNode()?.host || n.ownerDocument?.defaultView?.frameElement || null;
    }
    const docs = new Set([...around].map((n) => n.ownerDocument));
    for (const doc of docs) {
      if (doc.readyState !== 'complete') return true;
      for (const an of doc.getAnimations?.() ?? []) {
        if (an.playState !== 'running' && an.playState !== 'pending') continue;
        const t = an.effect?.target;
        if (t && around.has(t)) return true;
      }
    }
    return false;
  }

  // prepare {ref|selector, scroll?, hitTest?, watch?}: the element scrolled
  // into view (instantly, whatever the page's scroll-behavior), its box in the
  // top viewport (rect) and the point to aim at (x, y; aim: where in the box,
  // as fractions — the same in any frame's coordinates), what is in the way
  // when nothing of it can be hit (cover), and the viewport it was measured
  // in, and whether it may be moving (mayMove). The service worker measures
  // again a frame later, and acts only on a box that held still, when it may
  // be moving, is covered, or was scrolled to (targets.js). watch: arm the
  // watch of the call's input (pointer.js) and of what it changes (changes.js).
  function prepare(a) {
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const desc = describe(el);
    const before = firstBox(el);
    if (a.scroll !== false && !inView(winOf(el), before)) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    }
    let box = firstBox(el);
    if (box.width === 0 && box.height === 0) {
      return { error: `${desc} has no size on screen (hidden?) — take a new snapshot`, desc };
    }
    const rect = toTop(el, { x: box.x, y: box.y, width: box.width, height: box.height }, a.scroll !== false);
    box = firstBox(el); // the frames' scrolling does not move it in its own viewport
    let aim = { fx: 0.5, fy: 0.5 };
    let cover = null;
    let passThrough = null;
    if (a.hitTest !== false) {
      const p = agent.pointer.aim(el, box);
      if (p.cover) ({ cover, passThrough = null } = p);
      else aim = { fx: box.width ? (p.x - box.x) / box.width : 0.5, fy: box.height ? (p.y - box.y) / box.height : 0.5 };
    }
    if (a.watch) {
      agent.pointer.watch(el, a.startAt);
      agent.changes.arm(a.startAt, el);
    }
    const role = roleOf(el);
    const scrolled = before.x !== box.x || before.y !== box.y;
    return {
      desc, rect, aim, x: rect.x + rect.width * aim.fx, y: rect.y + rect.height * aim.fy, state: stateOf(el, role),
      note: res.note || '', scrolled, cover, passThrough, moving: a.hitTest !== false && mayMove(el),
      shown: document.visibilityState === 'visible',
      viewport: { width: window.innerWidth, height: window.innerHeight, x: Math.round(winOf(el).scrollX), y: Math.round(winOf(el).scrollY) },
    };
  }

  // Did a mouse move reach the target? (Input to out-of-process frames is
  // routed by compositor hit-test data, which lags a scroll.)
  function hoverCheck(a) {
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const w = winOf(el);
    const r = ensure(a.startAt);
    if (a.arm) {
      r.moveHit = null;
      if (!r.moveWins) r.moveWins = new WeakSet();
      if (!r.moveWins.has(w)) {
        r.moveWins.add(w);
        w.addEventListener('mousemove', (e) => { r.moveHit = { path: e.composedPath(), t: Date.now() }; }, true);
      }
      return { armed: true };
    }
    return new Promise((resolveP) => {
      const deadline = Date.now() + (a.waitMs ?? 60);
      const check = () => {
        if (r.moveHit) {
          // Inside a closed shadow root the path stops at its host.
          let n = el;
          while (n && !r.moveHit.path.includes(n)) n = n.getRootNode()?.host ?? null;
          return resolveP({ hit: !!n });
        }
        if (Date.now() >= deadline) return resolveP({ hit: false, none: true });
        setTimeout(check, 8);
      };
      check();
    });
  }

  // Two animation frames (capped): lets a scroll reach the compositor, whose
  // hit-test data routes input to out-of-process frames.
  function settle(a) {
    return new Promise((res) => {
      const done = () => res({ ok: true });
      setTimeout(done, a.maxMs ?? 300);
      let n = a.frames ?? 2;
      const tick = () => (--n > 0 ? requestAnimationFrame(tick) : setTimeout(done, a.extraMs ?? 0));
      requestAnimationFrame(tick);
    });
  }

  agent.geometry = { firstBox, intoParent, ensureVisible, prepare, hoverCheck, settle };
})(globalThis.__tabbridgeAgent ??= {});
