// extension/page/agent/pointer.js on a tiny DOM stub: which point of an
// element a pointer reaches (the hit test), and how an error names the cover.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { h, loadAgent, stubDocument, text } from './page_agent_vm.mjs';

// The stub's window is the top one: no frames above it to check.
const view = stubDocument.defaultView;
Object.assign(view, { innerWidth: 800, innerHeight: 600 });
const { aim, coverName, reaches } = loadAgent({ globals: { window: view } }).agent.pointer;

// A document whose hit test answers hitAt(x, y).
function withHits(hitAt) {
  stubDocument.elementFromPoint = hitAt;
}

// An element that can say what it contains (the stub's h() cannot).
function box(tag, attrs = {}, children = [], props = {}) {
  const el = h(tag, attrs, children, props);
  el.contains = (n) => {
    for (let c = n; c; c = c.parentElement) if (c === el) return true;
    return false;
  };
  return el;
}

describe('coverName', () => {
  it('tag, id and two classes, with a short text', () => {
    assert.equal(coverName(box('div', {}, [], { id: 'shade', className: 'modal-backdrop fade show', innerText: '' })), 'div#shade.modal-backdrop.fade');
    assert.equal(coverName(box('div', {}, [], { className: 'toast', innerText: ' Saved\n  ' })), 'div.toast "Saved"');
  });

  it('a long text is left out; an SVG class (not a string) is ignored', () => {
    assert.equal(coverName(box('section', {}, [], { className: '', innerText: 'x'.repeat(41) })), 'section');
    assert.equal(coverName(box('svg', {}, [], { className: { baseVal: 'icon' } })), 'svg');
  });
});

describe('reaches', () => {
  it('the element itself, what is inside it, and its label', () => {
    const inner = box('span', {}, [text('Go')]);
    const button = box('button', {}, [inner]);
    const label = box('label');
    const field = box('input', {}, [], { labels: [label], closest: (sel) => (sel === 'label' ? label : null) });
    label.control = field;
    assert.ok(reaches(button, button));
    assert.ok(reaches(button, inner));
    assert.ok(reaches(field, label));
  });

  it('not a sibling, a parent, or nothing', () => {
    const button = box('button');
    const other = box('div');
    box('body', {}, [button, other]);
    assert.ok(!reaches(button, other));
    assert.ok(!reaches(button, button.parentElement));
    assert.ok(!reaches(button, null));
  });

  it('an option is reached through its select', () => {
    const select = box('select');
    const option = box('option', {}, [], { closest: (sel) => (sel === 'select' ? select : null) });
    assert.ok(reaches(option, select));
  });
});

describe('aim', () => {
  it('the centre when the hit test finds the element there', () => {
    const button = box('button');
    withHits(() => button);
    assert.deepEqual({ ...aim(button, { x: 100, y: 100, width: 80, height: 20 }) }, { x: 140, y: 110 });
  });

  it('another point of the box when its middle is covered', () => {
    const button = box('button');
    const cover = box('div', {}, [], { className: 'badge', innerText: '' });
    withHits((x) => (x >= 120 && x <= 160 ? cover : button));
    const p = aim(button, { x: 100, y: 100, width: 80, height: 20 });
    assert.ok(p.x < 120 || p.x > 160, `aimed at x=${p.x}, under the badge`);
    assert.ok(p.y >= 100 && p.y <= 120);
  });

  it('a box covered everywhere names its cover', () => {
    const button = box('button');
    const shade = box('div', {}, [], { className: 'modal-backdrop', innerText: '' });
    withHits(() => shade);
    assert.deepEqual({ ...aim(button, { x: 100, y: 100, width: 80, height: 20 }) }, { cover: 'div.modal-backdrop' });
  });

  it('a box outside the viewport is named as such', () => {
    const button = box('button');
    withHits(() => button);
    assert.match(aim(button, { x: 100, y: 700, width: 80, height: 20 }).cover, /outside the visible page/);
  });
});
