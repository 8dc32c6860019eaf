// extension/page/agent/effects_wait.js and the read after an action
// (changes.js `after`): an action that changed the DOM already is read at
// once; one that changed nothing yet is read once the DOM has gone quietMs
// without a change, at maxMs on a page that never stops changing. Node's mock
// timers drive the page's clock.

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
  const mutate = () => { for (const o of observers) o.fn([{ type: 'childList', addedNodes: [] }]); };
  const globals = { MutationObserver, document: {}, performance: { now: () => Date.now() }, setTimeout, clearTimeout };
  return { globals, mutate, observers };
}

// Settles `promise` while advancing the mock clock in 1 ms steps; resolves to
// [value, ms it took].
async function runClock(promise, limitMs = 5000) {
  let done = false;
  let value;
  promise.then((v) => { done = true; value = v; });
  const start = Date.now();
  const settle = () => new Promise((r) => setImmediate(r)); // every microtask so far (setImmediate is not mocked)
  for (let i = 0; i < limitMs && !done; i++) {
    await settle();
    if (done) break;
    mock.timers.tick(1);
  }
  await settle();
  assert.ok(done, 'never answered');
  return [value, Date.now() - start];
}

// A change watch as changes.js arms it: {mutations, last}, fed by p.mutate.
function watch(p) {
  const c = { mutations: 0, last: 0 };
  p.observers.add({ fn: () => { c.mutations++; c.last = Date.now(); } });
  return c;
}

// A test on the mock clock (setImmediate stays real: runClock's flush).
const clock = (fn) => async () => {
  mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'], now: 1_000_000 });
  try {
    await fn();
  } finally {
    mock.timers.reset();
  }
};

describe('agent effectsWait.untilSettled', () => {
  it('an action that changed the DOM already is read at once', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    const [value, took] = await runClock(agent.effectsWait.untilSettled(watch(p), { changed: true, quietMs: 20 }));
    assert.deepEqual({ ...value }, { waitedFor: 'nothing' });
    assert.equal(took, 0);
  }));

  it('one that changed nothing yet is read quietMs after its last change', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    const c = watch(p);
    const answer = agent.effectsWait.untilSettled(c, { changed: false, quietMs: 20, maxMs: 1000 });
    // Changes at 5 and 15 ms: quiet from 15 ms on, so the answer comes at 35.
    const timeline = (async () => {
      for (let t = 0; t < 16; t++) {
        if (t === 5 || t === 15) p.mutate();
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    const [value, took] = await runClock(answer);
    await timeline;
    assert.equal(value.waitedFor, 'quiet');
    assert.equal(c.mutations, 2);
    assert.ok(took >= 34 && took <= 38, `answered after ${took} ms`);
  }));

  it('one that changes nothing is read after quietMs', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    const [, took] = await runClock(agent.effectsWait.untilSettled(watch(p), { changed: false, quietMs: 20 }));
    assert.ok(took >= 20 && took <= 22, `answered after ${took} ms`);
  }));

  it('a page that never stops changing is read at maxMs', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    const ticker = setInterval(p.mutate, 5);
    const [, took] = await runClock(agent.effectsWait.untilSettled(watch(p), { changed: false, quietMs: 20, maxMs: 200 }));
    clearInterval(ticker);
    assert.ok(took >= 200 && took <= 205, `answered after ${took} ms`);
  }));
});

describe('agent op after: when the action changed the DOM already', () => {
  it('a change since the arm answers at once', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    agent.run('arm', {});
    mock.timers.tick(3);
    p.mutate();
    const [value, took] = await runClock(agent.run('after', { quietMs: 20 }));
    assert.equal(value.waitedFor, 'nothing');
    assert.equal(value.mutations, 1);
    assert.equal(took, 0);
  }));

  it('no change since the arm waits for the quiet', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    agent.run('arm', {});
    const [value, took] = await runClock(agent.run('after', { quietMs: 20 }));
    assert.equal(value.waitedFor, 'quiet');
    assert.ok(took >= 20 && took <= 22, `answered after ${took} ms`);
  }));

  it('after the fetches it started, what their answers bring is waited for again', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    agent.run('arm', {});
    p.mutate();
    const [value] = await runClock(agent.run('after', { quietMs: 20, final: false }));
    assert.equal(value.waitedFor, 'nothing');
    const [again, took] = await runClock(agent.run('after', { quietMs: 20, afterFetches: true }));
    assert.equal(again.waitedFor, 'quiet');
    assert.ok(took >= 20 && took <= 22, `answered after ${took} ms`);
  }));

  // The input's events, as pointer.seen gives them (t: when each was seen).
  const seenAt = (agent, times) => {
    agent.pointer.seen = () => ({ events: times.map(([type, t]) => ({ type, t, reached: true })), gone: false });
  };
  const CLICK = ['pointerdown', 'mousedown', 'click'];

  it('a click whose handler changed the DOM, on a page quiet until then, answers at once', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    agent.run('arm', {});
    mock.timers.tick(2);
    const pressed = Date.now();
    mock.timers.tick(2);
    const clicked = Date.now();
    p.mutate(); // in the click's handler
    seenAt(agent, [['pointerdown', pressed], ['mousedown', pressed], ['click', clicked]]);
    const [value, took] = await runClock(agent.run('after', { kinds: CLICK, quietMs: 20 }));
    assert.equal(value.waitedFor, 'nothing');
    assert.equal(took, 0);
  }));

  it('a page that changed between the arm and the click (a ripple at the press, a clock) waits for the quiet', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    agent.run('arm', {});
    mock.timers.tick(2);
    const pressed = Date.now();
    p.mutate(); // the press's ripple
    mock.timers.tick(2);
    const clicked = Date.now();
    p.mutate(); // the click's handler
    seenAt(agent, [['pointerdown', pressed], ['mousedown', pressed], ['click', clicked]]);
    const [value, took] = await runClock(agent.run('after', { kinds: CLICK, quietMs: 20 }));
    assert.equal(value.waitedFor, 'quiet');
    assert.ok(took >= 18 && took <= 22, `answered after ${took} ms`);
  }));

  it('a watch read once is not the next action\'s: that one, not armed, waits for the quiet', clock(async () => {
    const p = page();
    const { agent } = loadAgent({ globals: p.globals });
    agent.run('arm', {});
    p.mutate();
    const [first] = await runClock(agent.run('after', { quietMs: 20, final: false }));
    assert.equal(first.waitedFor, 'nothing');
    mock.timers.tick(500);
    const [next, took] = await runClock(agent.run('after', { quietMs: 20 }));
    assert.equal(next.waitedFor, 'quiet', 'the last action\'s changes are not this one\'s');
    assert.equal(next.mutations, 0);
    assert.ok(took >= 20 && took <= 22, `answered after ${took} ms`);
  }));
});
