// extension/page/agent/registry.js: refs for elements, one registry per
// document, and what an unknown, stale or malformed ref answers.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { h, loadAgent } from './page_agent_vm.mjs';

function page() {
  const doc = { querySelectorAll: () => [], querySelector: () => null };
  const env = loadAgent({ globals: { document: doc } });
  return { ...env, doc, reg: env.agent.registry };
}

describe('parseLocalRef', () => {
  it('reads e<number>, nothing else', () => {
    const { reg } = page();
    assert.equal(reg.parseLocalRef('e12'), 12);
    assert.equal(reg.parseLocalRef('f1e3'), null);
    assert.equal(reg.parseLocalRef('12'), null);
    assert.equal(reg.parseLocalRef(undefined), null);
  });
});

describe('refOf and resolve', () => {
  it('numbers start at startAt and an element keeps its ref', () => {
    const { reg } = page();
    const a = h('button', {}, [], { isConnected: true });
    const b = h('button', {}, [], { isConnected: true });
    assert.equal(reg.refOf(a, 40), 'e40');
    assert.equal(reg.refOf(b, 99), 'e41', 'startAt only seeds a new registry');
    assert.equal(reg.refOf(a, 40), 'e40');
    assert.equal(reg.resolve({ ref: 'e41', localRef: 'e41' }).el, b);
  });

  it('a ref below the registry\'s start is stale, one above what it gave is unknown, a removed element is stale', () => {
    const { reg } = page();
    const el = h('a', {}, [], { isConnected: true });
    reg.refOf(el, 10);
    assert.match(reg.resolve({ ref: 'e3', localRef: 'e3' }).error, /^stale ref e3: the page changed/);
    assert.match(reg.resolve({ ref: 'e11', localRef: 'e11' }).error, /^unknown ref e11/);
    el.isConnected = false;
    const r = reg.resolve({ ref: 'f2e10', localRef: 'e10' });
    assert.match(r.error, /^stale ref f2e10: that element is no longer in the page/);
    assert.equal(r.stale, true);
  });

  it('no registry yet: every ref is stale; a malformed one says what refs look like', () => {
    const { reg } = page();
    assert.match(reg.resolve({ ref: 'e1', localRef: 'e1' }).error, /^stale ref/);
    assert.match(reg.resolve({ ref: 'x', localRef: 'x' }).error, /is not a ref/);
  });

  it('a registry belongs to its document: another document starts a new one', () => {
    const env = page();
    env.reg.refOf(h('a'), 5);
    assert.ok(env.reg.current());
    env.context.document = { other: true };
    assert.equal(env.reg.current(), null);
    assert.equal(env.reg.refOf(h('a'), 20), 'e20');
  });

  it('prune forgets elements no longer in the page', () => {
    const { reg } = page();
    const gone = h('a', {}, [], { isConnected: true });
    reg.refOf(gone, 1);
    gone.isConnected = false;
    const r = reg.current();
    reg.prune(r);
    assert.equal(r.byRef.size, 0);
  });
});
