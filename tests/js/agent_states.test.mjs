// extension/page/agent/states.js: an element's state, and the snapshot's
// [bracketed] words for it; a secret field's value never shows.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { h, loadAgent } from './page_agent_vm.mjs';

const { stateOf, formatState } = loadAgent().agent.states;
const plain = (x) => JSON.parse(JSON.stringify(x));
const field = (attrs, props) => h('input', attrs, [], { matches: () => false, required: false, readOnly: false, ...props });

describe('formatState', () => {
  it('each state as its word, in a fixed order', () => {
    assert.equal(formatState({ level: 2 }), ' [level=2]');
    assert.equal(formatState({ checked: true, expanded: false, disabled: true }), ' [checked] [collapsed] [disabled]');
    assert.equal(formatState({ checked: 'mixed', pressed: true, selected: true }), ' [mixed] [pressed] [selected]');
    assert.equal(formatState({ checked: false }), '');
  });

  it('values are quoted and cut; options show six and a count of the rest', () => {
    assert.equal(formatState({ value: 'a  "b"' }), ' [value="a \\"b\\""]');
    assert.equal(formatState({ value: 'x'.repeat(100) }), ` [value="${'x'.repeat(79)}…"]`);
    const options = ['1', '2', '3', '4', '5', '6', '7', '8'];
    assert.equal(formatState({ options }), ' [options: 1 | 2 | 3 | 4 | 5 | 6 | …+2]');
  });
});

describe('stateOf', () => {
  it('a checkbox: checked, mixed when indeterminate, disabled', () => {
    assert.deepEqual(plain(stateOf(field({ type: 'checkbox' }, { checked: true }), 'checkbox')), { checked: true });
    assert.equal(stateOf(field({ type: 'checkbox' }, { indeterminate: true }), 'checkbox').checked, 'mixed');
    assert.ok(stateOf(field({ type: 'checkbox' }, { matches: (s) => s === ':disabled' }), 'checkbox').disabled);
  });

  it('a text field: its value (cut at 200, with the full length), required, readonly', () => {
    const s = stateOf(field({}, { value: 'v'.repeat(250), required: true, readOnly: true }), 'textbox');
    assert.equal(s.value.length, 200);
    assert.equal(s.valueLength, 250);
    assert.ok(s.required && s.readonly);
  });

  it('a password field: secret, its value as at most 8 dots, and its type', () => {
    assert.deepEqual(plain(stateOf(field({ type: 'password' }, { value: 'hunter2hunter2' }), 'textbox')),
      { secret: true, value: '••••••••', type: 'password' });
  });

  it('ARIA states: pressed, expanded, selected; a heading\'s level', () => {
    const s = stateOf(h('div', { 'aria-pressed': 'true', 'aria-expanded': 'false', 'aria-selected': 'true' }, [], { matches: () => false }), 'button');
    assert.deepEqual(plain(s), { pressed: true, expanded: false, selected: true });
    assert.equal(stateOf(h('h4', {}, [], { matches: () => false }), 'heading').level, 4);
    assert.equal(stateOf(h('div', { 'aria-level': '5' }, [], { matches: () => false }), 'heading').level, 5);
  });
});
