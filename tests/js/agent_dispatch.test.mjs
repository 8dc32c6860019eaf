// extension/page/agent/dispatch.js and its caller in tools/stack/agent_call.js: the op
// table, deadlines and failures as answers, installing twice, and the small
// call that finds (or misses) the installed agent.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import vm from 'node:vm';

import { AGENT_FILES, callAgent, isMissing, readUrlOf, valueOf } from '../../extension/tools/stack/agent_call.js';
import { h, injectAgent, loadAgent } from './page_agent_vm.mjs';

const plain = (x) => JSON.parse(JSON.stringify(x));
const doc = () => ({ querySelectorAll: () => [], querySelector: () => null });

describe('agent.run', () => {
  it('an unknown op (also an Object.prototype name) answers an error', () => {
    const { agent } = loadAgent();
    assert.deepEqual(plain(agent.run('nope', {})), { error: 'unknown agent op nope' });
    assert.deepEqual(plain(agent.run('toString', {})), { error: 'unknown agent op toString' });
  });

  it('past notAfter an op does nothing and says so', () => {
    const { agent } = loadAgent({ globals: { document: doc() } });
    assert.deepEqual(plain(agent.run('state', { selector: 'a', notAfter: Date.now() - 1 })), { error: 'the page answered too late', expired: true });
  });

  it('an op that throws answers "page script failed"', () => {
    const { agent } = loadAgent(); // no document: the op throws a ReferenceError
    assert.match(agent.run('active', {}).error, /^page script failed: .*document/);
  });

  it('a state op reaches the element through a ref the registry gave', () => {
    const d = doc();
    const { agent } = loadAgent({ globals: { document: d } });
    const box = h('input', { type: 'checkbox' }, [], { isConnected: true, checked: true, matches: () => false });
    const ref = agent.registry.refOf(box, 7);
    const r = plain(agent.run('state', { ref, localRef: ref, startAt: 7 }));
    assert.deepEqual(r.state, { checked: true });
  });
});

describe('installing', () => {
  it('the files can be injected again into the same document; the agent keeps its refs and version', () => {
    const env = loadAgent({ globals: { document: doc() } });
    const el = h('a', {}, [], { isConnected: true });
    const ref = env.agent.registry.refOf(el, 3);
    env.agent.version = 'v1';
    const before = env.agent.run;
    injectAgent(env.context);
    assert.notEqual(env.context.__tabbridgeAgent.run, before, 'the new code is in place');
    assert.equal(env.context.__tabbridgeAgent, env.agent, 'one namespace');
    assert.equal(env.agent.version, 'v1');
    assert.equal(env.agent.registry.resolve({ ref, localRef: ref }).el, el);
  });

  it('AGENT_FILES lists every file of extension/page/agent/, dispatch.js last', () => {
    const onDisk = readdirSync(new URL('../../extension/page/agent/', import.meta.url)).filter((f) => f.endsWith('.js'));
    assert.deepEqual([...AGENT_FILES].map((f) => f.replace('page/agent/', '')).sort(), onDisk.sort());
    assert.equal(AGENT_FILES.at(-1), 'page/agent/dispatch.js');
  });
});

describe('callAgent (serialised into the page)', () => {
  const inPage = (context, ...args) => {
    context.callArgs = args;
    context.location ??= { protocol: 'http:', origin: 'http://127.0.0.1:8000', href: 'http://127.0.0.1:8000/a' };
    return vm.runInContext(`(${callAgent.toString()})(...callArgs)`, context);
  };
  // What the op answered (callAgent hands it over with its document's URL).
  const value = (answer) => plain(valueOf(answer));

  it('no agent in the document: answers missing, runs nothing', () => {
    const context = vm.createContext({});
    assert.ok(isMissing(inPage(context, 'active', {}, 'v1', false)));
    assert.ok(isMissing(inPage(context, 'active', {}, 'v1', true)));
  });

  it('just installed: takes the version and runs; another version is missing until installed again', () => {
    const { context } = loadAgent();
    assert.ok(isMissing(inPage(context, 'nope', {}, 'v1', false)), 'installed by no one we know');
    assert.deepEqual(value(inPage(context, 'nope', {}, 'v1', true)), { error: 'unknown agent op nope' });
    assert.deepEqual(value(inPage(context, 'nope', {}, 'v1', false)), { error: 'unknown agent op nope' });
    assert.ok(isMissing(inPage(context, 'nope', {}, 'v2', false)));
  });

  it('answers with the URL of the document it ran in, taken by the same script', () => {
    const { context } = loadAgent();
    context.location = { protocol: 'http:', origin: 'http://127.0.0.1:8000', href: 'http://127.0.0.1:8000/page?q=1' };
    assert.equal(readUrlOf(inPage(context, 'nope', {}, 'v1', true)), 'http://127.0.0.1:8000/page?q=1');
    context.location = { protocol: 'about:', origin: 'http://127.0.0.1:8000', href: 'about:srcdoc' };
    assert.equal(readUrlOf(inPage(context, 'nope', {}, 'v1', false)), 'http://127.0.0.1:8000/', 'a srcdoc frame is its creator\'s origin\'s');
  });

  it('uses nothing from its module: its source names no outer binding', () => {
    const context = vm.createContext({});
    assert.doesNotThrow(() => inPage(context, 'x', {}, 'v', false));
  });
});
