// What text a click changed (issue 41 item 5): the page agent's reading
// (extension/page/agent/text_changes.js), on a small DOM of our own whose
// mutations make the records a MutationObserver would, and the worker's
// wording of it (extension/tools/shared/text_changes.js): "12" → "13", a
// message that came or went, whole when short, the part that changed when
// long, nothing for a text that changed back or is not shown, nothing for a
// page's own ticking, and a clause of bounded size whatever the page did.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { loadAgent } from './page_agent_vm.mjs';
import { MAX_TEXT_CLAUSE, renamedClause, show, textChangesClause } from '../../extension/tools/shared/text_changes.js';

// ---- a small DOM whose changes are recorded as a MutationObserver's -------------

class FakeNode {
  constructor(nodeType, { localName = null, data = '' } = {}) {
    this.nodeType = nodeType;
    this.localName = localName;
    this.data = data;
    this.childNodes = [];
    this.parentNode = null;
    this.hidden = false;
  }
  get parentElement() { return this.parentNode?.nodeType === 1 ? this.parentNode : null; }
  get isConnected() {
    let n = this;
    while (n.parentNode) n = n.parentNode;
    return n.nodeType === 9;
  }
  contains(other) {
    for (let n = other; n; n = n.parentNode) if (n === this) return true;
    return false;
  }
  // Tree order: FOLLOWING (4) when `other` comes after this node.
  compareDocumentPosition(other) {
    const order = [];
    const walk = (n) => { order.push(n); for (const k of n.childNodes) walk(k); };
    let root = this;
    while (root.parentNode) root = root.parentNode;
    walk(root);
    return order.indexOf(other) > order.indexOf(this) ? 4 : 2;
  }
  closest(selector) {
    const tags = selector.split(',').map((s) => s.trim());
    for (let n = this; n && n.nodeType === 1; n = n.parentNode) if (tags.includes(n.localName)) return n;
    return null;
  }
  checkVisibility() {
    for (let n = this; n; n = n.parentNode) if (n.hidden) return false;
    return true;
  }
  getBoundingClientRect() { return this.checkVisibility() ? { width: 40, height: 16 } : { width: 0, height: 0 }; }
}

function dom() {
  const records = [];
  const doc = new FakeNode(9);
  const el = (tag, ...kids) => {
    const e = new FakeNode(1, { localName: tag });
    for (const k of kids) append(e, typeof k === 'string' ? txt(k) : k, false);
    return e;
  };
  const txt = (data) => new FakeNode(3, { data });
  function append(parent, child, record = true) {
    const prev = parent.childNodes.at(-1) ?? null;
    parent.childNodes.push(child);
    child.parentNode = parent;
    if (record) records.push({ type: 'childList', target: parent, addedNodes: [child], removedNodes: [], previousSibling: prev, nextSibling: null });
  }
  function remove(child) {
    const parent = child.parentNode;
    const i = parent.childNodes.indexOf(child);
    parent.childNodes.splice(i, 1);
    child.parentNode = null;
    records.push({
      type: 'childList', target: parent, addedNodes: [], removedNodes: [child],
      previousSibling: parent.childNodes[i - 1] ?? null, nextSibling: parent.childNodes[i] ?? null,
    });
  }
  // el.textContent = text: every child out, one text node in.
  function setText(e, text) {
    const removed = e.childNodes.splice(0);
    for (const k of removed) k.parentNode = null;
    const t = txt(text);
    e.childNodes.push(t);
    t.parentNode = e;
    records.push({ type: 'childList', target: e, addedNodes: [t], removedNodes: removed, previousSibling: null, nextSibling: null });
  }
  // textNode.data = value (React, Vue, Svelte update text so).
  function setData(t, value) {
    records.push({ type: 'characterData', target: t, oldValue: t.data, addedNodes: [], removedNodes: [] });
    t.data = value;
  }
  const html = el('html');
  const body = el('body');
  append(doc, html, false);
  append(html, body, false);
  return { doc, html, body, el, txt, append, remove, setText, setData, records };
}

// The agent over that DOM; read(d, before, after) keeps the records made by
// before() as the page's own (before the action) and by after() as the action's.
function reader(d) {
  const { agent } = loadAgent({ globals: { document: { body: d.body, documentElement: d.html }, Node: { DOCUMENT_POSITION_FOLLOWING: 4 } } });
  return (before, act, opts = {}) => {
    const c = { texts: [] };
    before?.();
    agent.textChanges.keep(c, d.records.splice(0), 1);
    act();
    agent.textChanges.keep(c, d.records.splice(0), 10);
    return agent.textChanges.read(c, { from: 5, exclude: opts.exclude ?? null });
  };
}
const plain = (v) => JSON.parse(JSON.stringify(v));

describe('page agent textChanges.read', () => {
  it('a counter set by textContent: "12 likes" → "13 likes", with its element\'s whole short text', () => {
    const d = dom();
    const count = d.el('span', '12');
    const p = d.el('p', count, ' likes');
    d.append(d.body, p, false);
    const read = reader(d);
    assert.deepEqual(plain(read(null, () => d.setText(count, '13'))), { items: [{ was: '12 likes', now: '13 likes' }], more: 0 });
  });

  it('a text node updated in place (characterData), and a status message that came and one that went', () => {
    const d = dom();
    const label = d.txt('Add to cart');
    const status = d.el('div');
    const spinner = d.el('p', 'Loading…');
    d.append(d.body, d.el('button', label), false);
    d.append(d.body, status, false);
    d.append(d.body, spinner, false);
    const read = reader(d);
    const got = read(null, () => {
      d.setData(label, 'In the cart');
      d.append(status, d.el('strong', 'Added: 1 item'));
      d.remove(spinner);
    });
    assert.deepEqual(plain(got), {
      items: [{ was: 'Add to cart', now: 'In the cart' }, { was: '', now: 'Added: 1 item' }, { was: 'Loading…', now: '' }],
      more: 0,
    });
  });

  it('nothing for a text set back to what it was, for text not shown, and for text inside the excluded target', () => {
    const d = dom();
    const same = d.el('span', 'Saved');
    const hidden = d.el('div', 'old tip');
    hidden.hidden = true;
    const button = d.el('button', 'Like');
    d.append(d.body, same, false);
    d.append(d.body, hidden, false);
    d.append(d.body, button, false);
    const read = reader(d);
    assert.equal(read(null, () => {
      d.setText(same, 'Saved');
      d.setText(hidden, 'new tip');
      d.setText(button, 'Liked');
    }, { exclude: button }), null);
  });

  it('a page\'s own ticking (a clock that changed before the action too) is not the action\'s', () => {
    const d = dom();
    const clock = d.el('time', '10:00:01');
    const note = d.el('p', 'draft');
    d.append(d.body, clock, false);
    d.append(d.body, note, false);
    const read = reader(d);
    const got = read(() => d.setText(clock, '10:00:02'), () => {
      d.setText(clock, '10:00:03');
      d.setText(note, 'published');
    });
    assert.deepEqual(plain(got), { items: [{ was: 'draft', now: 'published' }], more: 0 });
  });

  it('a tooltip the hover added to the body before the press does not hide what the press added there', () => {
    const d = dom();
    d.append(d.body, d.el('h1', 'A page whose title is long enough to be more than eighty characters of text'), false);
    const read = reader(d);
    const got = read(() => d.append(d.body, d.el('div', 'Like this post')), () => d.append(d.body, d.el('p', 'Thanks!')));
    assert.deepEqual(plain(got), { items: [{ was: '', now: 'Thanks!' }], more: 0 });
  });

  it('a long text: the part that changed, with a little context and "…"', () => {
    const d = dom();
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const t = d.txt(words.join(' '));
    d.append(d.body, d.el('p', t), false);
    const read = reader(d);
    const changed = [...words];
    changed[20] = 'CHANGED';
    const got = plain(read(null, () => d.setData(t, changed.join(' '))));
    assert.equal(got.items.length, 1);
    const { was, now } = got.items[0];
    assert.ok(was.startsWith('…') && was.endsWith('…') && was.includes('word20') && was.length <= 80, was);
    assert.ok(now.startsWith('…') && now.endsWith('…') && now.includes('CHANGED') && now.length <= 80, now);
  });

  it('many changes: at most 4 named, the rest counted, in document order', () => {
    const d = dom();
    const cells = Array.from({ length: 9 }, (_, i) => d.el('td', `cell ${i}`));
    for (const c of cells) d.append(d.body, d.el('div', c), false);
    const read = reader(d);
    const got = plain(read(null, () => { for (const [i, c] of [...cells.entries()].reverse()) d.setText(c, `cell ${i}!`); }));
    assert.deepEqual(got.items.map((x) => x.now), ['cell 0!', 'cell 1!', 'cell 2!', 'cell 3!']);
    assert.equal(got.more, 5);
  });

  it('the controls a subtree brought are not told as text (appeared: names them); a list of only controls is no text change', () => {
    const d = dom();
    const list = d.el('ul', d.el('li', d.el('button', 'Loaded 1.1')));
    d.append(d.body, list, false);
    const read = reader(d);
    const got = read(null, () => {
      d.append(d.body, d.el('div', d.el('p', 'Really?'), d.el('button', 'Confirm'), d.el('a', 'Keep')));
      d.remove(list.childNodes[0]);
      d.append(list, d.el('li', d.el('button', 'Loaded 2.1')));
    });
    assert.deepEqual(plain(got), { items: [{ was: '', now: 'Really?' }], more: 0 });
  });

  it('no text record since the action: null', () => {
    const d = dom();
    d.append(d.body, d.el('p', 'still'), false);
    assert.equal(reader(d)(null, () => {}), null);
  });

  it('align: gaps between two child lists on the nodes both hold; a moved node is no change', () => {
    const { agent } = loadAgent();
    const [a, b, c, x, y] = ['a', 'b', 'c', 'x', 'y'];
    assert.deepEqual(plain(agent.textChanges.align([a, b, c], [a, x, c])), [{ gone: [b], came: [x], next: c }]);
    assert.deepEqual(plain(agent.textChanges.align([a, b], [a, b, y])), [{ gone: [], came: [y], next: null }]);
    assert.deepEqual(plain(agent.textChanges.align([a, b, c], [c, a, b])), []);
  });
});

describe('worker text_changes.js: the clauses', () => {
  it('items as "was" → "now", new "…", gone "…"', () => {
    assert.equal(textChangesClause({ items: [{ was: '12', now: '13' }, { was: '', now: 'Saved' }, { was: 'Loading…', now: '' }], more: 0 }),
      'text changed: "12" → "13", new "Saved", gone "Loading…"');
    assert.equal(textChangesClause(null), '');
    assert.equal(textChangesClause({ many: true }), '');
    assert.equal(textChangesClause({ items: [], more: 0 }), '');
  });

  it('the rest counted, and never more than MAX_TEXT_CLAUSE characters whatever the page sent', () => {
    assert.equal(textChangesClause({ items: [{ was: 'a', now: 'b' }], more: 3 }),
      'text changed: "a" → "b" and 3 more (snapshot shows them)');
    const huge = 'x'.repeat(100_000);
    const clause = textChangesClause({ items: Array.from({ length: 50 }, () => ({ was: huge, now: huge })), more: 10_000, andMore: true });
    assert.ok(clause.length <= MAX_TEXT_CLAUSE, `${clause.length} characters`);
    assert.match(clause, /and \d+\+ more \(snapshot shows them\)$/);
  });

  it('the target\'s new name; page text quoted on one line, cut at 80', () => {
    assert.equal(renamedClause({ was: 'Like', now: 'Liked' }), 'now says "Liked" (was "Like")');
    assert.equal(renamedClause(null), '');
    assert.equal(show('a\nb'), '"a b"');
    assert.equal(show('y'.repeat(200)).length, 82);
  });
});
