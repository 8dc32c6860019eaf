// extension/page/agent/roles.js: an element's role (explicit or implied by
// its tag), text fields and secret fields.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { h, loadAgent } from './page_agent_vm.mjs';

const { roleOf, isTexty, isSecret, INTERACTIVE_ROLES } = loadAgent().agent.roles;

describe('roleOf', () => {
  it('an explicit role wins, first token, lower case; presentation/none/generic fall back to the tag', () => {
    assert.equal(roleOf(h('div', { role: 'Tab extra' })), 'tab');
    assert.equal(roleOf(h('button', { role: 'none' })), 'button');
    assert.equal(roleOf(h('div', { role: 'generic' })), '');
  });

  it('links need an href', () => {
    assert.equal(roleOf(h('a', { href: '/x' })), 'link');
    assert.equal(roleOf(h('a')), '');
  });

  it('inputs by type: checkbox, radio, slider, spinbutton, searchbox, buttons, hidden, textbox or combobox', () => {
    const input = (type, props) => roleOf(h('input', type === undefined ? {} : { type }, [], props));
    assert.equal(input('CHECKBOX'), 'checkbox');
    assert.equal(input('radio'), 'radio');
    assert.equal(input('range'), 'slider');
    assert.equal(input('number'), 'spinbutton');
    assert.equal(input('search'), 'searchbox');
    for (const t of ['button', 'submit', 'reset', 'image', 'file', 'color']) assert.equal(input(t), 'button', t);
    assert.equal(input('hidden'), '');
    assert.equal(input(undefined), 'textbox');
    assert.equal(input('email', { list: {} }), 'combobox');
  });

  it('select is a combobox, or a listbox when multiple or sized', () => {
    assert.equal(roleOf(h('select', {}, [], { multiple: false, size: 0 })), 'combobox');
    assert.equal(roleOf(h('select', {}, [], { multiple: true, size: 0 })), 'listbox');
    assert.equal(roleOf(h('select', {}, [], { multiple: false, size: 4 })), 'listbox');
  });

  it('landmarks, headings and images', () => {
    assert.equal(roleOf(h('h3')), 'heading');
    assert.equal(roleOf(h('nav')), 'navigation');
    assert.equal(roleOf(h('header')), 'banner');
    assert.equal(roleOf(h('header', {}, [], { closest: () => ({}) })), '', 'a header inside a section is no banner');
    assert.equal(roleOf(h('img', { alt: '' })), '', 'decorative');
    assert.equal(roleOf(h('img', { alt: 'Logo' })), 'img');
    assert.equal(roleOf(h('div')), '');
  });

  it('the interactive roles include the widgets and not the landmarks', () => {
    assert.ok(INTERACTIVE_ROLES.has('button') && INTERACTIVE_ROLES.has('combobox'));
    assert.ok(!INTERACTIVE_ROLES.has('navigation') && !INTERACTIVE_ROLES.has('heading'));
  });
});

describe('isTexty and isSecret', () => {
  it('text-like inputs, textareas and the root of an editable region take text', () => {
    assert.ok(isTexty(h('input')));
    assert.ok(isTexty(h('input', { type: 'email' })));
    assert.ok(!isTexty(h('input', { type: 'checkbox' })));
    assert.ok(isTexty(h('textarea')));
    assert.ok(isTexty(h('div', {}, [], { isContentEditable: true })));
    assert.ok(!isTexty(h('span', {}, [], { isContentEditable: true, parentElement: { isContentEditable: true } })));
  });

  it('a password input, or a text input masked by -webkit-text-security, is secret', () => {
    assert.ok(isSecret(h('input', { type: 'password' })));
    assert.ok(!isSecret(h('input', { type: 'text' })));
    const masked = h('input', { type: 'text' }, [], { style: { getPropertyValue: () => 'disc' } });
    assert.ok(isSecret(masked));
    assert.ok(!isSecret(h('div', { type: 'password' })));
  });
});
