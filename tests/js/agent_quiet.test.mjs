// extension/page/agent/quiet.js: the wait for an action's effects ends once
// the DOM has gone quietMs without a change, and at maxMs on a page that
// never stops changing. Node's mock timers drive the page's clock.

import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';

import { loadAgent } from './page_agent_vm.mjs';

// A page whose DOM changes when the test says so.
function page() {
  const observers = new Set();
  class MutationObserver {
    constructor(fn) { this.fn = fn; }
    observe() { observers.add(this); }
    disconnect() { observers.delete(this); }
  }
  const mutate = () => { for (const o of observers) o.fn([{ type: 'childList' }]); };
  return { globals: { MutationObserver, document: {}, performance: { now: () => Date.now() }, setTimeout }, mutate, observers };
}

// Settles `promise` while advancing the mock clock in 1 ms steps; resolves to
// [value, ms it took].
async function runClock(promise, limitMs = 5000) {
  let done = false;
  let value;
  promise.then((v) => { done = true; value = v; });
  const start = Date.now();
  for (let i = 0; i < limitMs && !done; i++) {
    mock.timers.tick(1);
    await Promise.resolve();
  }
  assert.ok(done, 'quiet never answered');
  return [value, Date.now() - start];
}

describe('agent op quiet', () => {
  it('answers quietMs after the last change, counting the changes', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
    try {
      const p = page();
      const { agent } = loadAgent({ globals: p.globals });
      const answer = agent.run('quiet', { quietMs: 20, maxMs: 1000 });
      // Changes at 5 and 15 ms: quiet from 15 ms on, so the answer comes at 35.
      let changes = 0;
      const timeline = (async () => {
        for (let t = 0; t < 16; t++) {
          if (t === 5 || t === 15) { p.mutate(); changes++; }
          await new Promise((r) => setTimeout(r, 1));
        }
      })();
      const [value, took] = await runClock(answer);
      await timeline;
      assert.equal(value.mutations, changes);
      assert.ok(took >= 34 && took <= 38, `answered after ${took} ms`);
      assert.equal(p.observers.size, 0, 'the observer is disconnected');
    } finally {
      mock.timers.reset();
    }
  });

  it('answers at maxMs on a page that never stops changing', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1_000_000 });
    try {
      const p = page();
      const { agent } = loadAgent({ globals: p.globals });
      const ticker = setInterval(p.mutate, 5);
      const [value, took] = await runClock(agent.run('quiet', { quietMs: 20, maxMs: 200 }));
      clearInterval(ticker);
      assert.ok(took >= 200 && took <= 205, `answered after ${took} ms`);
      assert.ok(value.mutations >= 35, `${value.mutations} changes seen`);
    } finally {
      mock.timers.reset();
    }
  });

  it('a page that does not change answers after quietMs', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
    try {
      const { agent } = loadAgent({ globals: page().globals });
      const [value, took] = await runClock(agent.run('quiet', { quietMs: 20 }));
      assert.deepEqual({ ...value }, { mutations: 0, waitedMs: 20 });
      assert.ok(took >= 20 && took <= 22, `answered after ${took} ms`);
    } finally {
      mock.timers.reset();
    }
  });
});
