// extension/page/agent/registry.js: refs for elements, one registry per
// document, and what an unknown, stale or malformed ref answers.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { readFileSync } from 'node:fs';
import vm from 'node:vm';

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

// A button or result-list tool aims by the element its content script picked
// (page/picks.js, the same isolated world), never by a selector the page
// could make find another element between the pick and the press.
describe('resolve {picked}', () => {
  const withPicks = () => {
    const env = page();
    env.context.crypto = globalThis.crypto;
    vm.runInContext(readFileSync(new URL('../../extension/page/picks.js', import.meta.url), 'utf8'), env.context);
    return { ...env, picks: env.context.__tabbridgePicks };
  };

  it('gives back the very element picked, whatever a selector finds now', () => {
    const { reg, doc, picks } = withPicks();
    const listed = h('button', {}, [], { isConnected: true });
    const decoy = h('button', {}, [], { isConnected: true });
    const token = picks.pick(listed);
    // The page swapped the two: what was the listed button's place holds the decoy.
    doc.querySelector = () => decoy;
    doc.querySelectorAll = () => [decoy];
    assert.equal(reg.resolve({ picked: token }).el, listed);
  });

  it('an element that left the page, or an unknown token, is an error: nothing to press', () => {
    const { reg, picks } = withPicks();
    const el = h('button', {}, [], { isConnected: true });
    const token = picks.pick(el);
    el.isConnected = false;
    assert.equal(reg.resolve({ picked: token }).stale, true);
    assert.match(reg.resolve({ picked: 'p1' }).error, /no longer in the page/);
    assert.match(token, /^p[0-9a-z]{8,}$/, 'a random token, not a count another document repeats');
  });

  it('an element with the id __tabbridgePicks does not keep it from setting up', () => {
    const env = page();
    env.context.crypto = globalThis.crypto;
    env.context.__tabbridgePicks = { nodeType: 1 }; // what named access to <div id="__tabbridgePicks"> gives
    vm.runInContext(readFileSync(new URL('../../extension/page/picks.js', import.meta.url), 'utf8'), env.context);
    assert.equal(typeof env.context.__tabbridgePicks.pick, 'function');
  });

  it('keeps the last picks only', () => {
    const { picks } = withPicks();
    const first = picks.pick(h('button', {}, [], { isConnected: true }));
    for (let i = 0; i < 40; i++) picks.pick(h('button', {}, [], { isConnected: true }));
    assert.equal(picks.picked(first), null);
  });
});
