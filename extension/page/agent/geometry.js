// The page agent's geometry and pointing: where an element is in this
// frame's top-level viewport (through same-origin frames), scrolled into
// view, whether something covers it; whether a mouse move reached it; waiting
// for the compositor to catch up with a scroll.
(function (agent) {
  'use strict';

  const { shadowOf, styleOf, winOf } = agent.dom;
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

  function labelsOf(el) {
    return el.labels ? [...el.labels] : [];
  }

  function prepare(a) {
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const desc = describe(el);
    const before = firstBox(el);
    if (a.scroll !== false) {
      if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
      else el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    }
    let box = firstBox(el);
    if (box.width === 0 && box.height === 0) {
      return { error: `${desc} has no size on screen (hidden?) — take a new snapshot`, desc };
    }
    // Hit test in the element's own frame.
    const local = { x: box.x, y: box.y, width: box.width, height: box.height };
    let note = res.note || '';
    if (a.hitTest !== false) {
      const cx = local.x + local.width / 2;
      const cy = local.y + local.height / 2;
      const root = el.getRootNode();
      const hitRoot = typeof root.elementFromPoint === 'function' ? root : el.ownerDocument;
      let hit = hitRoot.elementFromPoint(cx, cy);
      // Descend into shadow roots at that point.
      for (let i = 0; hit && i < 20; i++) {
        const sr = shadowOf(hit);
        const inner = sr?.elementFromPoint?.(cx, cy);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      const related = (h) => h && (h === el || el.contains(h) || labelsOf(el).some((l) => l === h || l.contains(h)) ||
        (h.getRootNode() !== document && el.contains(h.getRootNode().host)));
      let h = hit;
      let ok = false;
      for (let i = 0; h && i < 30; i++) {
        if (related(h)) { ok = true; break; }
        if (shadowOf(el)?.contains(h)) { ok = true; break; }
        h = h.parentElement || h.getRootNode()?.host || null;
        if (h && h.contains(el) && h !== el) break;
      }
      if (!ok && hit) {
        note = `${note ? `${note}; ` : ''}but ${describe(hit)} covers it there and gets the pointer`;
        res.covered = true;
      }
    }
    // Up through same-origin frames (inline in this document's registry).
    let rect = local;
    let win = winOf(el);
    while (win !== window) {
      const fe = win.frameElement;
      if (!fe) break;
      const inner = rect;
      rect = intoParent(fe, inner);
      const w = winOf(fe);
      rect = ensureVisible(w, rect, fe, () => intoParent(fe, inner));
      win = w;
    }
    rect = ensureVisible(window, rect, null, () => rect);
    const role = roleOf(el);
    const after = firstBox(el);
    const scrolled = before.x !== after.x || before.y !== after.y;
    return { desc, rect, x: rect.x + rect.width / 2, y: rect.y + rect.height / 2, state: stateOf(el, role), note, scrolled, covered: !!res.covered };
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
