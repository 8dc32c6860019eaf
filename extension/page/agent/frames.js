// The page agent's frames: placing a cross-origin (out-of-process) child
// frame in its parent. The child announces itself to its parent window with a
// token (postMessage); the parent remembers token -> source window, which
// names the <iframe> (its contentWindow) — chrome.runtime.getFrameId is not
// available to injected scripts. The service worker pairs the frameIds.
(function (agent) {
  'use strict';

  const { allFrameEls, winOf } = agent.dom;
  const { ensure, refOf } = agent.registry;
  const { intoParent, ensureVisible } = agent.geometry;

  const MSG = '__tabbridgeFrame';

  // This window (or a same-origin child's) hears frame announcements.
  function listen(win, startAt) {
    const r = ensure(startAt);
    if (r.listening.has(win)) return;
    r.listening.add(win);
    win.addEventListener('message', (e) => {
      const t = e.data && e.data[MSG];
      if (typeof t === 'string' && e.source) r.seen.set(t, e.source);
    });
  }
  function announce() {
    if (window.parent === window) return { top: true };
    if (window.frameElement) return { inline: true }; // the parent's snapshot walks this document
    const token = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
    window.parent.postMessage({ [MSG]: token }, '*');
    return { token };
  }

  // Waits (briefly) for the tokens' messages; answers {token: ref of its <iframe>}.
  async function resolveFrames(a) {
    const r = ensure(a.startAt);
    const want = new Set(a.tokens);
    const deadline = Date.now() + (a.waitMs ?? 400);
    const pending = () => {
      // Done when every placeholder iframe is matched, or every token has been seen.
      const wins = new Set();
      for (const t of want) if (r.seen.has(t)) wins.add(r.seen.get(t));
      const phs = (a.frameRefs || []).map((ref) => r.byRef.get(+ref.slice(1))?.deref()).filter(Boolean);
      const unmatched = phs.filter((f) => !wins.has(f.contentWindow));
      return unmatched.length > 0 && [...want].some((t) => !r.seen.has(t));
    };
    while (pending() && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    const frames = allFrameEls();
    const out = {};
    for (const t of want) {
      const src = r.seen.get(t);
      if (!src) continue;
      const fe = frames.find((f) => f.contentWindow === src);
      if (fe) out[t] = refOf(fe, a.startAt);
    }
    return { map: out };
  }

  // A child frame's rect (a.rect, in its viewport) mapped into this one, and
  // on up through this frame's same-origin ancestors.
  async function frameRect(a) {
    const r = ensure(a.startAt);
    const deadline = Date.now() + 1000;
    while (!r.seen.has(a.token) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    const src = r.seen.get(a.token);
    const fe = src && allFrameEls().find((f) => f.contentWindow === src);
    if (!fe) return { error: 'could not find that frame in its parent page — take a new snapshot', stale: true };
    // Same-origin frames between this document and fe: map through them too.
    const mapUp = () => {
      let rect = intoParent(fe, a.rect);
      let w = winOf(fe);
      while (w !== window && w.frameElement) {
        rect = intoParent(w.frameElement, rect);
        w = winOf(w.frameElement);
      }
      return rect;
    };
    const start = mapUp();
    let rect = ensureVisible(window, start, fe, mapUp);
    let scrolled = rect.x !== start.x || rect.y !== start.y;
    // And on up through this frame's same-origin ancestors, as far as they go.
    let up = 0;
    let w = window;
    for (;;) {
      let owner = null;
      try {
        owner = w.parent !== w ? w.frameElement : null;
      } catch { /* cross-origin parent */ }
      if (!owner) break;
      const inner = rect;
      const pw = winOf(owner);
      const at = intoParent(owner, inner);
      rect = ensureVisible(pw, at, owner, () => intoParent(owner, inner));
      scrolled ||= rect.x !== at.x || rect.y !== at.y;
      w = pw;
      up++;
    }
    return { rect, up, scrolled };
  }

  agent.frames = { listen, announce, resolveFrames, frameRect };
})(globalThis.__tabbridgeAgent ??= {});
