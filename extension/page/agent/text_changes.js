// What text an action changed in the page, for the answer of a click (and of
// the page's button and result-list tools): "12" → "13", a status message
// that came ("Saved"), one that went ("Loading…"). changes.js keeps the
// change watch's text records (keep) and asks read() after the action; the
// worker words it (tools/shared/text_changes.js). Only what a person could
// see changed is told — text of an element shown on screen, of a subtree
// added and shown —, never a page's own churn: a text that also changed
// between the arm and the action (a clock, a ticker) is left out. The text of
// the controls a subtree brought (buttons, links, fields) is not told as
// text: the answer's `appeared:` names them, with their refs. Bounded:
// at most MAX_RECORDS records looked at (past them nothing is said: the
// answer claims no change it cannot reconstruct), MAX_ITEMS items named,
// each side cut at SIDE_MAX characters around what changed.
(function (agent) {
  'use strict';

  const { collapse, cut } = agent.text;

  const MAX_RECORDS = 2000; // text records kept per watch; past them: {many: true}
  const MAX_ITEMS = 4; // items named in the answer; the rest counted
  const MAX_SCAN = 60; // items worked out at most (a list re-rendered row by row)
  const SIDE_MAX = 80; // characters of either side of an item
  const CONTEXT = 24; // characters kept before and after the change in a long text
  const TEXT_BUDGET = 2000; // characters of one text read at most
  const NODE_BUDGET = 5000; // nodes walked for one text at most
  const LEVELS = 3; // elements climbed for context ("12" → "13" in "12 likes")
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);
  // Controls: their names are `appeared:`'s (changes.js), not text to tell again.
  const CONTROL_TAGS = new Set(['a', 'button', 'input', 'select', 'textarea', 'option']);
  const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'textbox', 'combobox', 'searchbox', 'slider', 'spinbutton']);
  const isControl = (el) => CONTROL_TAGS.has(el.localName) || CONTROL_ROLES.has(el.getAttribute?.('role') ?? '');
  const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'br', 'button', 'dd', 'details', 'dialog', 'div',
    'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header',
    'hr', 'label', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td',
    'tfoot', 'th', 'thead', 'tr', 'ul']);

  // Keeps the text-bearing records of one MutationObserver batch, delivered at t.
  function keep(c, records, t) {
    if (c.textsMany) return;
    for (const r of records) {
      if (r.type !== 'childList' && r.type !== 'characterData') continue;
      if (c.texts.length >= MAX_RECORDS) {
        c.textsMany = true;
        c.texts = [];
        return;
      }
      c.texts.push({
        type: r.type, target: r.target, added: [...(r.addedNodes ?? [])], removed: [...(r.removedNodes ?? [])],
        prev: r.previousSibling ?? null, next: r.nextSibling ?? null, old: r.oldValue ?? null, t,
      });
    }
  }

  // The gaps between two child lists, aligned on the nodes both hold:
  // [{gone: [nodes], came: [nodes], next: the node of `now` after the gap, or
  // null}]. A node that moved is not a change.
  function align(before, now) {
    const inNow = new Set(now);
    const inBefore = new Set(before);
    const gaps = [];
    let i = 0;
    let j = 0;
    for (;;) {
      const gone = [];
      const came = [];
      while (i < before.length && !inNow.has(before[i])) gone.push(before[i++]);
      while (j < now.length && !inBefore.has(now[j])) came.push(now[j++]);
      if (gone.length || came.length) gaps.push({ gone, came, next: now[j] ?? null });
      if (i >= before.length && j >= now.length) break;
      if (i < before.length && j < now.length && before[i] === now[j]) {
        i++;
        j++;
      } else if (i < before.length) {
        i++;
      } else {
        j++;
      }
    }
    return gaps;
  }

  // was → now as the answer shows it: whole when both are short, else the
  // part that changed with a little context, "…" where cut.
  function trimmed(was, now, max = SIDE_MAX) {
    if (was.length <= max && now.length <= max) return { was, now };
    let p = 0;
    while (p < was.length && p < now.length && was[p] === now[p]) p++;
    let s = 0;
    while (s < was.length - p && s < now.length - p && was[was.length - 1 - s] === now[now.length - 1 - s]) s++;
    // Some context, from a word's start, to a word's end.
    let a = Math.max(0, p - CONTEXT);
    for (let k = 0; a > 0 && k < 12 && was[a - 1] !== ' '; k++) a--;
    const side = (str) => {
      let b = Math.min(str.length, str.length - s + CONTEXT);
      for (let k = 0; b < str.length && k < 12 && str[b] !== ' '; k++) b++;
      const mid = str.slice(a, b).trim();
      const body = cut(mid, max - 2);
      return `${a > 0 ? '…' : ''}${body}${b < str.length && body === mid ? '…' : ''}`;
    };
    return { was: side(was), now: side(now) };
  }

  const shown = (el) => {
    if (!el || el.nodeType !== 1 || !el.isConnected) return false;
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  };
  const skipped = (el) => !!el?.closest?.('script, style, noscript, template, head');

  // read(c, {from, exclude}) -> null (no text changed) | {many: true} |
  //   {items: [{was, now}], more, andMore?}: the text the records since
  //   `from` changed, in document order; nothing inside `exclude` (the
  //   target, when the answer names its new text itself).
  function read(c, { from = -Infinity, exclude = null } = {}) {
    if (c.textsMany) return { many: true };
    const recs = c.texts.filter((r) => r.t >= from);
    if (!recs.length) return null;
    // Text that changed before the action changes by itself (a clock, a
    // ticker): not the action's doing. Only text churn counts so — a tooltip
    // the hover added to the body does not make the body's later changes the
    // page's own.
    const textOnly = (r) => r.type === 'characterData' || [...r.added, ...r.removed].every((n) => n.nodeType === 3);
    const own = new Set(c.texts.filter((r) => r.t < from && textOnly(r)).map((r) => r.target));
    const oldData = new Map();
    for (const r of recs) if (r.type === 'characterData' && !oldData.has(r.target)) oldData.set(r.target, r.old ?? '');
    // Each element's children at `from`: its records undone, newest first.
    const oldKids = new Map();
    const added = new Set();
    for (let i = recs.length - 1; i >= 0; i--) {
      const r = recs[i];
      if (r.type !== 'childList') continue;
      let kids = oldKids.get(r.target);
      if (!kids) oldKids.set(r.target, (kids = [...r.target.childNodes]));
      for (const n of r.added) {
        added.add(n);
        const k = kids.indexOf(n);
        if (k >= 0) kids.splice(k, 1);
      }
      let at = r.prev ? kids.indexOf(r.prev) + 1 : 0;
      if (r.prev && at === 0) at = r.next && kids.includes(r.next) ? kids.indexOf(r.next) : kids.length;
      kids.splice(at, 0, ...r.removed);
    }
    // A node the action brought (its parent's gap tells it), or inside one.
    const fresh = new Map();
    const isNew = (n) => {
      if (!added.has(n)) return false;
      if (!fresh.has(n)) fresh.set(n, !!n.parentNode && !(oldKids.get(n.parentNode) ?? []).includes(n));
      return fresh.get(n);
    };
    const insideNew = (n) => {
      for (let x = n; x; x = x.parentNode) if (isNew(x)) return true;
      return false;
    };
    // The text of nodes then (old) or now, blocks apart, within the budgets;
    // noControls: without the text of controls (what a gap brought or took).
    const textOf = (nodes, old, noControls = false) => {
      const budget = { chars: TEXT_BUDGET, nodes: NODE_BUDGET };
      let out = '';
      const walk = (x) => {
        if (budget.chars <= 0 || budget.nodes-- <= 0) return;
        if (x.nodeType === 3) {
          const d = old && oldData.has(x) ? oldData.get(x) : String(x.data ?? '');
          out += d;
          budget.chars -= d.length;
          return;
        }
        if (x.nodeType !== 1 || SKIP.has(x.localName) || (noControls && isControl(x))) return;
        const block = BLOCK.has(x.localName);
        if (block) out += ' ';
        for (const k of (old && oldKids.get(x)) || x.childNodes) walk(k);
        if (block) out += ' ';
      };
      for (const n of nodes) walk(n);
      return collapse(out);
    };
    const same = (a, b) => a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
    const outside = (el) => !exclude || (el !== exclude && !exclude.contains(el));

    // Each item: the element whose text changed, and where in the page
    // (at: a node; end: after all of at's content) for the document order.
    const items = [];
    let andMore = false;
    const push = (el, was, now, at, end = false) => {
      if (items.length >= MAX_SCAN) {
        andMore = true;
        return;
      }
      items.push({ el, was, now, at, end });
    };
    const targets = new Set();
    const nodes = new Set();
    for (const r of recs) (r.type === 'childList' ? targets : nodes).add(r.target);
    for (const t of targets) {
      if (andMore) break;
      if (t.nodeType !== 1 || !t.isConnected || own.has(t) || SKIP.has(t.localName) || skipped(t) || !outside(t) || insideNew(t)) continue;
      for (const { gone, came, next } of align(oldKids.get(t) ?? [], [...t.childNodes])) {
        const was = textOf(gone, true, true);
        const now = textOf(came, false, true);
        if (same(was, now)) continue;
        // Seen: what came is shown (an element of it, or text in a shown parent).
        const els = came.filter((n) => n.nodeType === 1);
        if (els.length ? !els.some(shown) : !shown(t)) continue;
        push(t, was, now, came[0] ?? next ?? t, !came.length && !next);
      }
    }
    for (const n of nodes) {
      if (andMore) break;
      const el = n.parentElement;
      if (!n.isConnected || !el || own.has(n) || own.has(el) || skipped(el) || !outside(el) || insideNew(n)) continue;
      // A node its parent's gap tells already.
      if (targets.has(el) && !(oldKids.get(el) ?? []).includes(n)) continue;
      const was = collapse(oldData.get(n));
      const now = collapse(n.data);
      if (same(was, now) || !shown(el)) continue;
      push(el, was, now, n);
    }
    if (!items.length) return null;

    // Context: the element's whole text when it is short and holds no other item.
    const byEl = new Map();
    for (const it of items) byEl.set(it.el, (byEl.get(it.el) ?? 0) + 1);
    for (const it of items) {
      if (byEl.get(it.el) !== 1) continue;
      let el = it.el;
      for (let level = 0; level <= LEVELS && el && el !== document.body && el !== document.documentElement; level++) {
        if (level > 0 && (!outside(el) || items.some((o) => o !== it && el.contains(o.el)))) break;
        const was = textOf([el], true);
        const now = textOf([el], false);
        if (was.length > SIDE_MAX || now.length > SIDE_MAX) break;
        it.was = was;
        it.now = now;
        el = el.parentElement;
      }
    }
    items.sort((a, b) => {
      if (a.at === b.at) return (a.end ? 1 : 0) - (b.end ? 1 : 0);
      if (a.end && a.at.contains(b.at)) return 1;
      if (b.end && b.at.contains(a.at)) return -1;
      return a.at.compareDocumentPosition(b.at) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
    });
    const shownItems = items.slice(0, MAX_ITEMS).map(({ was, now }) => trimmed(was, now));
    return { items: shownItems, more: items.length - shownItems.length, ...(andMore ? { andMore: true } : {}) };
  }

  agent.textChanges = { keep, read, align, trimmed, MAX_RECORDS };
})(globalThis.__tabbridgeAgent ??= {});
