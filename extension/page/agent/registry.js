// The page agent's ref registry: element <-> number, one per document, kept
// in the isolated world's global (globalThis.__tabbridgeRefs, apart from the
// agent's code so that installing the code again keeps the refs). Numbers
// start at startAt, which the service worker keeps growing per tab, so a ref
// never names two elements of one tab; a ref the registry does not hold
// (older document) is stale.
(function (agent) {
  'use strict';

  const KEY = '__tabbridgeRefs';

  // This document's registry, or null when no op has needed one yet.
  function current() {
    const reg = globalThis[KEY];
    return reg && reg.doc === document ? reg : null;
  }

  function ensure(startAt) {
    let reg = current();
    if (!reg) {
      const base = Math.max(1, startAt | 0);
      reg = globalThis[KEY] = { doc: document, base, next: base, byEl: new WeakMap(), byRef: new Map(), seen: new Map(), listening: new WeakSet() };
    }
    return reg;
  }

  function refOf(el, startAt) {
    const reg = ensure(startAt);
    let n = reg.byEl.get(el);
    if (n === undefined) {
      n = reg.next++;
      reg.byEl.set(el, n);
      reg.byRef.set(n, new WeakRef(el));
    }
    return `e${n}`;
  }

  // The elements the last snapshots folded as items of a run (fold.js): a
  // ref inside one reads the whole item (snapshot {ref}, read_page {ref}).
  function foldedItems(startAt) {
    const reg = ensure(startAt);
    reg.folded ??= new WeakSet();
    return reg.folded;
  }

  // "e12" -> 12; anything else -> null.
  function parseLocalRef(local) {
    const m = /^e(\d+)$/.exec(local || '');
    return m ? +m[1] : null;
  }

  // Forgets elements that are gone.
  function prune(reg) {
    for (const [n, w] of reg.byRef) if (!w.deref()?.isConnected) reg.byRef.delete(n);
  }

  // {ref, localRef} or {selector} of an op's args -> {el, note?} | {error, stale?}.
  function resolve(a) {
    if (a.ref) {
      const n = parseLocalRef(a.localRef);
      if (n === null) return { error: `"${a.ref}" is not a ref; refs look like e12 (from snapshot)` };
      const reg = current();
      if (!reg || n < reg.base) return { error: `stale ref ${a.ref}: the page changed since that snapshot — take a new snapshot`, stale: true };
      const el = reg.byRef.get(n)?.deref();
      if (!el) {
        return n >= reg.next
          ? { error: `unknown ref ${a.ref}: no snapshot gave it — take a new snapshot`, stale: true }
          : { error: `stale ref ${a.ref}: that element is no longer in the page — take a new snapshot`, stale: true };
      }
      if (!el.isConnected) return { error: `stale ref ${a.ref}: that element is no longer in the page — take a new snapshot`, stale: true };
      return { el };
    }
    if (a.picked) {
      // An element our own content scripts picked (page/picks.js): held by
      // this world, never looked up in the page's DOM again.
      const el = globalThis.__tabbridgePicks?.picked(a.picked);
      if (!el || !el.isConnected) return { error: 'that element is no longer in the page — nothing was pressed; call the tool again', stale: true };
      return { el };
    }
    if (a.selector) {
      let el;
      let count = 0;
      try {
        count = document.querySelectorAll(a.selector).length;
        el = count ? document.querySelector(a.selector) : agent.dom.deepQuery(document, a.selector);
      } catch (e) {
        return { error: `invalid selector "${a.selector}": ${e.message.replace(/^.*?: /, '')}` };
      }
      if (!el) return { error: `no element matches selector "${a.selector}" — take a snapshot and use a ref` };
      return { el, note: count > 1 ? `selector matched ${count} elements; used the first` : '' };
    }
    return { error: 'give ref (from snapshot) or selector' };
  }

  agent.registry = { current, ensure, foldedItems, refOf, parseLocalRef, prune, resolve };
})(globalThis.__tabbridgeAgent ??= {});
