// extension/page/agent/names.js: accessible names on a tiny DOM stub, the
// short descriptions in messages, links' hrefs as the snapshot shows them.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { h, loadAgent, text } from './page_agent_vm.mjs';

const { nameOf, describe: describeEl, hrefOf, textOf } = loadAgent().agent.names;
const plain = (x) => JSON.parse(JSON.stringify(x));

describe('nameOf', () => {
  it('aria-labelledby first (the referenced elements\' text), then aria-label', () => {
    h('span', { id: 'n1' }, [text('First')]);
    h('span', { id: 'n2', 'aria-label': 'Second' });
    const el = h('div', { 'aria-labelledby': 'n1 n2 missing', 'aria-label': 'ignored' });
    assert.deepEqual(plain(nameOf(el, 'button')), { name: 'First Second' });
    assert.deepEqual(plain(nameOf(h('div', { 'aria-label': '  Close\n dialog ' }), 'button')), { name: 'Close dialog' });
  });

  it('a button takes its name from its content, marked fromContent', () => {
    const b = h('button', {}, [text(' Save '), h('img', { alt: 'disk' })]);
    assert.deepEqual(plain(nameOf(b, 'button')), { name: 'Save disk', fromContent: true });
  });

  it('content hidden by aria-hidden or display:none does not count', () => {
    const b = h('button', {}, [text('Buy'), h('span', { 'aria-hidden': 'true' }, [text('icon')]), h('i', {}, [text('x')], { style: { display: 'none' } })]);
    assert.equal(nameOf(b, 'button').name, 'Buy');
  });

  it('input buttons: their value, else Submit/Reset', () => {
    assert.equal(nameOf(h('input', { type: 'submit' }, [], { value: '' }), 'button').name, 'Submit');
    assert.equal(nameOf(h('input', { type: 'button' }, [], { value: 'Go' }), 'button').name, 'Go');
  });

  it('a field: its labels without the field\'s own content, else placeholder or title', () => {
    const field = h('select');
    const label = h('label', {}, [text('Country '), field], { control: field });
    Object.assign(field, { labels: [label], closest: (sel) => (sel === 'label' ? label : null) });
    assert.equal(nameOf(field, 'combobox').name, 'Country');
    assert.equal(nameOf(h('input', { placeholder: 'Search…' }), 'textbox').name, 'Search…');
    assert.equal(nameOf(h('input', { type: 'file' }), 'button').name, 'Choose file');
    assert.equal(nameOf(h('input'), 'textbox').name, '');
  });

  it('a generic element is not named by its content, only by title', () => {
    assert.deepEqual(plain(nameOf(h('div', { title: 'Tip' }, [text('Long text')]), '')), { name: 'Tip' });
  });
});

describe('describe', () => {
  it('role and quoted name; unnamed: role with tag#id or tag.class; no role: the tag', () => {
    assert.equal(describeEl(h('button', {}, [text('OK')])), 'button "OK"');
    assert.equal(describeEl(h('button', { id: 'x' }, [], { id: 'x' })), 'button (button#x)');
    assert.equal(describeEl(h('div', {}, [], { className: ' card big ' })), 'div.card');
  });
});

describe('textOf', () => {
  it('stops at the cap (roughly) and skips scripts', () => {
    const el = h('div', {}, [h('script', {}, [text('code')]), text('a'.repeat(50)), text('b'.repeat(50))]);
    assert.equal(textOf(el, 10), 'a'.repeat(50));
  });
});

describe('hrefOf', () => {
  const here = new URL('https://shop.example/cart?x=1');
  const link = (href) => h('a', { href }, [], { href: new URL(href, here).href });
  it('same origin: the path; the same page: the hash; elsewhere: the whole URL', () => {
    assert.equal(hrefOf(link('/items/3'), here), '/items/3');
    assert.equal(hrefOf(link('#top'), here), '#top');
    assert.equal(hrefOf(link('https://other.example/a'), here), 'https://other.example/a');
  });
  it('javascript: links and no href show nothing', () => {
    assert.equal(hrefOf(link('javascript:void 0'), here), '');
    assert.equal(hrefOf(h('a'), here), '');
  });
  it('a URL that spells a ref token does not read as one', () => {
    assert.equal(hrefOf(link('/go/[ref=e9]'), here), '/go/(ref=e9]');
    assert.equal(hrefOf(link('https://other.example/[ref=e9]'), here), 'https://other.example/(ref=e9]');
  });
});

// dom.js labelsOf: what el.labels lists, without el.labels (Blink walks the
// whole document for it at every call).
describe('labelsOf', () => {
  const { labelsOf } = loadAgent({ globals: { queueMicrotask } }).agent.dom;
  const page = (labels) => ({ querySelectorAll: (sel) => (sel === 'label[for]' ? labels : []) });

  it('the wrapping label and the labels whose for= names the field, in document order', () => {
    const field = h('input', { id: 'mail' }, [], { id: 'mail' });
    // byFor comes first in the document (compareDocumentPosition: 2 preceding, 4 following).
    const wrap = h('label', {}, [field], { control: field, compareDocumentPosition: () => 2 });
    const byFor = h('label', { for: 'mail' }, [text('E-mail')], { control: field, compareDocumentPosition: () => 4 });
    const other = h('label', { for: 'name' }, [text('Name')], { control: null });
    Object.assign(field, { closest: (sel) => (sel === 'label' ? wrap : null), getRootNode: () => page([byFor, other]) });
    assert.deepEqual([...labelsOf(field)], [byFor, wrap]);
  });

  it('not a wrapping label that names another field, nor what cannot have labels', () => {
    const field = h('input');
    const elsewhere = h('input');
    const wrap = h('label', { for: 'x' }, [field], { control: elsewhere });
    field.closest = (sel) => (sel === 'label' ? wrap : null);
    assert.equal(labelsOf(field).length, 0);
    assert.equal(labelsOf(h('input', { type: 'hidden' })).length, 0);
    assert.equal(labelsOf(h('div')).length, 0);
  });
});
