// The page agent's account of what an action changed, read in one call after
// the input: whether the input reached its target (pointer.js's watch), the
// page settled (effects_wait.js), the target's state, the
// actionable elements the action brought (a dialog's buttons, new rows),
// with refs the action tools accept, and, when asked (texts), the target's
// new name and the text it changed (text_changes.js). The change watch is
// armed before the input (prepare's watch, or arm), so that the changes the
// input made before the worker asked are known.
(function (agent) {
  'use strict';

  const { ensure, refOf, resolve } = agent.registry;
  const { INTERACTIVE_ROLES, roleOf } = agent.roles;
  const { describe, nameOf } = agent.names;
  const { stateOf } = agent.states;

  const MAX_ROOTS = 200; // added subtrees kept (a page that adds thousands: the first ones)
  const MAX_LIST = 20; // elements named in the answer; the rest counted
  const MAX_SCAN = 2000; // elements looked at in the added subtrees
  const IDLE_MS = 10_000; // a watch nobody read any more stops observing
  const DIALOGS = new Set(['dialog', 'alertdialog']);

  const nameNow = (el) => nameOf(el, roleOf(el) || 'clickable').name;

  // Arms the change watch of this document (one at a time): every element
  // added from now on, the text records (text_changes.js), and the time of
  // the last change. target: the element the action is aimed at (prepare),
  // whose name is kept to tell a new one.
  function arm(startAt, target = null) {
    const reg = ensure(startAt);
    reg.changes?.observer.disconnect();
    // first: when the first change after the arm came (null: none yet).
    const c = {
      since: performance.now(), first: null, last: performance.now(), roots: [], mutations: 0, observer: null, timer: 0, read: false,
      texts: [], target: target ? { el: target, name: nameNow(target) } : null,
    };
    const take = (records) => {
      c.last = performance.now();
      c.first ??= c.last;
      c.mutations += records.length;
      for (const r of records) {
        for (const n of r.addedNodes ?? []) if (n.nodeType === 1 && c.roots.length < MAX_ROOTS) c.roots.push(n);
      }
      agent.textChanges.keep(c, records, c.last);
    };
    c.take = take;
    c.observer = new MutationObserver(take);
    c.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true, characterDataOldValue: true });
    c.timer = setTimeout(() => stop(reg, c), IDLE_MS);
    reg.changes = c;
    return c;
  }

  function stop(reg, c) {
    c.observer.disconnect();
    clearTimeout(c.timer);
    if (reg.changes === c) reg.changes = null;
  }

  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 && r.height <= 0) return false;
    const st = agent.dom.styleOf(el);
    return st.visibility !== 'hidden' && st.display !== 'none';
  };

  const actionable = (el, role) => INTERACTIVE_ROLES.has(role) || DIALOGS.has(role) || (el.isContentEditable && !el.parentElement?.isContentEditable);

  // The actionable elements in the added subtrees that are still in the page
  // and shown, in document order, without the target itself:
  // {lines: ['button "OK" [ref=e41]', …], more: how many past MAX_LIST}.
  function broughtBy(c, target, startAt) {
    const roots = c.roots.filter((n, i) => n.isConnected && !c.roots.some((m, j) => j !== i && m !== n && m.contains(n)));
    roots.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    const lines = [];
    let more = 0;
    let scanned = 0;
    const seen = new Set();
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let el = root; el && scanned < MAX_SCAN; el = walker.nextNode(), scanned++) {
        if (el === target || seen.has(el)) continue;
        seen.add(el);
        const role = roleOf(el);
        if (!actionable(el, role) || !shown(el)) continue;
        if (lines.length >= MAX_LIST) {
          more++;
          continue;
        }
        lines.push(`${describe(el)} [ref=${refOf(el, startAt)}]`);
      }
    }
    return { lines, more };
  }

  // after {ref|selector?, kinds?, waitMs?, quietMs?, maxMs?, final?, afterFetches?, texts?} ->
  //   {seen: pointer.seen's answer (when kinds), state?, gone?, desc?,
  //    brought: {lines, more}, mutations, waitedFor, waitedMs, next,
  //    renamed?: {was, now}, texts?: text_changes.js read's answer}
  // Waits for the input's first event of kinds (the reached check), then for
  // the page to settle (effects_wait.js), then reads. texts: also the
  // target's new name (renamed) and the text the action changed, from its
  // first event of kinds on (from the arm without them).
  async function after(a) {
    const reg = ensure(a.startAt);
    const start = performance.now();
    const seen = a.kinds?.length ? await agent.pointer.seen({ kinds: a.kinds, waitMs: a.waitMs }) : null;
    // A watch read once already is the last action's: a new one starts now
    // (afterFetches is the same action's second read).
    const c = reg.changes && (!reg.changes.read || a.afterFetches) ? reg.changes : arm(a.startAt);
    // The input's events were all seen by now (its handlers ran): settle
    // (effects_wait.js), at once if the action changed the DOM already and
    // nothing else did — no change from the arm to the action's last event
    // (the click of a press and release: a ripple at the press, a hover
    // style, a clock that ticks make the page one that changes by itself,
    // read after the quiet). For other input, from the arm. After the
    // fetches the action started (afterFetches), what their answers bring is
    // still to come.
    const kinds = a.kinds ?? [];
    const acted = seen?.events?.filter((e) => kinds.includes(e.type)).map((e) => e.t) ?? [];
    const actedAt = acted.length ? Math.max(...acted) : c.since;
    const changed = !a.afterFetches && c.first !== null && c.first >= actedAt;
    const quietMs = Math.max(1, a.quietMs ?? 20);
    const maxMs = Math.max(quietMs, a.maxMs ?? 1000);
    const { waitedFor } = await agent.effectsWait.untilSettled(c, { changed, quietMs, maxMs, start });
    const out = { seen, mutations: c.mutations, waitedFor, waitedMs: Math.round(performance.now() - start) };
    const res = a.ref || a.selector || a.picked ? resolve(a) : null;
    if (res?.el) {
      out.desc = describe(res.el);
      out.state = stateOf(res.el, roleOf(res.el));
    } else if (res?.stale) out.gone = true;
    out.brought = broughtBy(c, res?.el, a.startAt);
    if (a.texts) {
      const pending = c.observer.takeRecords?.() ?? [];
      if (pending.length) c.take(pending);
      // The action's changes: from its first event (the second read, after
      // the fetches, goes on from the same point).
      c.from ??= acted.length ? Math.min(...acted) : c.since;
      let exclude = null;
      if (res?.el && c.target?.el === res.el) {
        const now = nameNow(res.el);
        if (now !== c.target.name && (now || c.target.name)) {
          out.renamed = { was: c.target.name, now };
          exclude = res.el; // its text is in its new name
        }
      }
      const texts = agent.textChanges.read(c, { from: c.from, exclude });
      if (texts) out.texts = texts;
    }
    c.read = true;
    if (a.final !== false) stop(reg, c);
    else {
      clearTimeout(c.timer);
      c.timer = setTimeout(() => stop(reg, c), IDLE_MS);
    }
    out.next = reg.next;
    return out;
  }

  agent.changes = { arm, after, armOp: (a) => (arm(a.startAt), { armed: true }) };
})(globalThis.__tabbridgeAgent ??= {});
