// extension/page/agent/read.js: read_page's selection mode on a DOM stub
// (a secret field's selection is never given); the other modes need a real
// page (tests/e2e/page_read.test.mjs).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { h, loadAgent } from './page_agent_vm.mjs';

function pageWith(active, selected = '') {
  const location = { href: 'https://example.test/form' };
  return loadAgent({ globals: { document: { activeElement: active }, location, window: { getSelection: () => selected } } }).agent;
}
const plain = (x) => JSON.parse(JSON.stringify(x));

describe('selection', () => {
  it('the selected part of the focused text field', () => {
    const field = h('textarea', {}, [], { value: 'hello world', selectionStart: 6, selectionEnd: 11 });
    assert.deepEqual(plain(pageWith(field).run('selection', {})), { text: 'world', url: 'https://example.test/form' });
  });

  it('a password field, or a field the page masks, gives no text and says secret', () => {
    const password = h('input', { type: 'password' }, [], { value: 'hunter2', selectionStart: 0, selectionEnd: 7 });
    assert.deepEqual(plain(pageWith(password).run('selection', {})), { text: '', secret: true, url: 'https://example.test/form' });
    const masked = h('input', { type: 'text' }, [], { style: { getPropertyValue: () => 'disc' }, value: 'x', selectionStart: 0, selectionEnd: 1 });
    assert.equal(pageWith(masked).run('selection', {}).secret, true);
  });

  it('otherwise the document\'s selection', () => {
    assert.equal(pageWith(null, 'some text').run('selection', {}).text, 'some text');
  });
});
