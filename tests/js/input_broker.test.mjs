// extension/worker/input_broker.js without a browser: the real cdp.js and
// native_port.js on stand-ins — chrome.debugger records the commands sent, a
// stand-in native port plays the host and answers policy.decide from a list
// of denied sites. Every effectful send is decided for the frames it is bound
// to, for a call, before it goes; nothing else may send one.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromeEvents, TAB_EVENTS } from './chrome_events.mjs';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');

const { event } = chromeEvents();
const sent = []; // [method, params, sessionId] of what reached chrome.debugger
const denied = new Set(['localhost']); // hosts the stand-in host denies
const decided = []; // [call, url] of each policy.decide the host got
let witnessed = []; // the key witness's read: [{frameId, result: {n, url}}]
let holdInTop = true; // where the held top document says the focus is
const messages = chromeEvents();

let hostPort = null;
function connectNative() {
  const onMessage = chromeEvents();
  const onDisconnect = chromeEvents();
  hostPort = {
    onMessage: onMessage.event('m'),
    onDisconnect: onDisconnect.event('d'),
    postMessage: (msg) => {
      if (msg.method !== 'policy.decide') return;
      const { call, url } = msg.params;
      decided.push([call, url]);
      const allowed = !denied.has(new URL(url).hostname);
      const result = allowed ? { allowed } : { allowed, result: { content: [{ type: 'text', text: `act denied on ${new URL(url).host}` }], isError: true } };
      queueMicrotask(() => onMessage.fire('m', { jsonrpc: '2.0', id: msg.id, result }));
    },
    disconnect: () => {},
  };
  return hostPort;
}

const tabs = {};
for (const name of TAB_EVENTS) tabs[name] = event(`tabs.${name}`);
globalThis.chrome = {
  runtime: {
    id: 'x', getManifest: () => ({ version: '0' }), connectNative, onStartup: event('runtime.onStartup'),
    onMessage: { ...messages.event('runtime.onMessage'), removeListener: () => {} },
  },
  webNavigation: { getFrame: async ({ frameId }) => (frameId === 0 ? { url: TOP } : null) },
  alarms: { onAlarm: event('alarms.onAlarm'), get: async () => ({}), create: () => {} },
  tabs: { ...tabs, get: async (tabId) => ({ id: tabId, url: 'http://127.0.0.1/' }) },
  debugger: {
    onEvent: event('debugger.onEvent'),
    onDetach: event('debugger.onDetach'),
    attach: async () => {},
    detach: async () => {},
    getTargets: async () => [],
    sendCommand: async ({ sessionId }, method, params) => {
      sent.push([method, params, sessionId]);
      return {};
    },
  },
  scripting: {
    executeScript: async ({ target, func, args }) => {
      if (func.name === 'holdPage') {
        messages.fire('runtime.onMessage', { type: 'tabbridge.hold', token: args[0], inTop: holdInTop }, { id: 'x', tab: { id: target.tabId }, frameId: 0 });
        return [{ frameId: 0, result: { input: true } }];
      }
      return func.name === 'readWitness' ? witnessed : [];
    },
  },
};

const nativePort = await import(path.join(EXTENSION, 'worker/native_port.js'));
const { cdp } = await import(path.join(EXTENSION, 'worker/cdp.js'));
const broker = await import(path.join(EXTENSION, 'worker/input_broker.js'));
const { Bind, Denied, Op, effect, heldKey, openCall, answerDialog, keyWitness, strayKeys } = broker;
nativePort.start(async () => ({ protocol: 2 }));

const TOP = 'http://127.0.0.1/page';
const D = 'http://localhost:9/bank';
const B = 'http://example.test/ad';
const key = { type: 'rawKeyDown', key: 'Enter' };
const inputSent = () => sent.filter(([m]) => m.startsWith('Input.') || m.startsWith('Page.handle'));
const reset = () => {
  sent.length = 0;
  decided.length = 0;
};

describe('the input broker', () => {
  it('cdp() refuses every effectful method: only the broker sends them', async () => {
    for (const m of ['Input.dispatchKeyEvent', 'Input.anythingAddedLater', 'Page.handleJavaScriptDialog', 'DOM.setFileInputFiles']) {
      await assert.rejects(cdp(1, m, {}), /sent by the input broker only/, m);
    }
    assert.throws(() => broker.EFFECTFUL_METHODS.push('x'), TypeError); // frozen
  });

  it('outside a call that acts nothing is sent, whatever the binding', async () => {
    reset();
    await assert.rejects(effect(1, Op.KEY, key, { bind: Bind.focus(() => [TOP]) }), /outside a call that acts/);
    await assert.rejects(effect(1, Op.MOUSE, { type: 'mouseMoved', x: 1, y: 1 }, { bind: Bind.pointer() }), /outside a call that acts/);
    assert.deepEqual(inputSent(), []);
  });

  it('a key bound to a frame of a denied site is refused before it goes; the host decides for the call', async () => {
    reset();
    const release = openCall(2, TOP, 41);
    try {
      await assert.rejects(effect(2, Op.KEY, key, { bind: Bind.focus(() => [D]) }), (e) => {
        assert.ok(e instanceof Denied);
        assert.match(e.result.content[0].text, /^the target is in a frame of http:\/\/localhost:9: act denied on localhost:9; nothing was done$/);
        return true;
      });
      assert.deepEqual(decided, [[41, D]]);
      assert.deepEqual(inputSent(), []);
    } finally {
      release();
    }
  });

  it("frames of the call's own site are not asked; an allowed other site is asked, then it goes", async () => {
    reset();
    const release = openCall(3, TOP, 42);
    try {
      await effect(3, Op.KEY, key, { bind: Bind.focus(() => [`${TOP}#x`, B]) });
      assert.deepEqual(decided, [[42, B]]);
      assert.deepEqual(inputSent().map(([m]) => m), ['Input.dispatchKeyEvent']);
    } finally {
      release();
    }
  });

  it('two acting calls on a tab: each must allow it', async () => {
    reset();
    const r1 = openCall(4, TOP, 43);
    const r2 = openCall(4, 'http://example.test/', 44);
    try {
      await effect(4, Op.MOUSE, { type: 'mousePressed', x: 1, y: 1 }, { bind: Bind.press(() => [TOP]) });
      assert.deepEqual(decided, [[44, TOP]]);
    } finally {
      r1();
      r2();
    }
  });

  it('a binding of the wrong kind is not sent: a key is bound to the focus, a press to where it lands', async () => {
    reset();
    const release = openCall(5, TOP, 45);
    try {
      await assert.rejects(effect(5, Op.KEY, key, { bind: Bind.pointer() }), /must be bound to focus/);
      await assert.rejects(effect(5, Op.MOUSE, { type: 'mousePressed', x: 1, y: 1 }, { bind: Bind.pointer() }), /must be bound to press/);
      await assert.rejects(effect(5, Op.DRAG, { type: 'drop', x: 1, y: 1 }, {}), /must be bound to press/);
      await assert.rejects(effect(5, 'Input.synthesizeTapGesture', { x: 1, y: 1 }, { bind: Bind.tab() }), /no binding/);
      assert.deepEqual(inputSent(), []);
    } finally {
      release();
    }
  });

  it('a frame whose address is not known is refused (fail closed)', async () => {
    reset();
    const release = openCall(6, TOP, 46);
    try {
      await assert.rejects(effect(6, Op.TEXT, { text: 'x' }, { bind: Bind.focus(() => [null]) }), /could not be told; nothing was done/);
      assert.deepEqual(inputSent(), []);
    } finally {
      release();
    }
  });

  it("a dialog's accept is decided for the frame that opened it, with the call the tool passes", async () => {
    reset();
    const call = { requestId: 47, policyUrl: TOP };
    const dialog = { type: 'confirm', url: D, sessionId: 'S1' };
    await assert.rejects(answerDialog(7, dialog, { accept: true }, { call }), (e) => e instanceof Denied && /the dialog is in a frame of http:\/\/localhost:9/.test(e.message));
    assert.deepEqual(inputSent(), []);
    // Its dismiss is the browser's own answer: it goes, in the dialog's session, without a decision.
    await answerDialog(7, dialog, { accept: false, promptText: 'ignored' }, { call });
    assert.deepEqual(inputSent(), [['Page.handleJavaScriptDialog', { accept: false }, 'S1']]);
    assert.deepEqual(decided, [[47, D]]);
    // Without a call, not even a dismiss.
    await assert.rejects(answerDialog(7, dialog, { accept: false }), /outside a call that acts/);
  });

  it("the top document's own dialog is accepted without asking", async () => {
    reset();
    await answerDialog(8, { type: 'alert', url: TOP }, { accept: true, promptText: 'p' }, { call: { requestId: 48, policyUrl: TOP } });
    assert.deepEqual(inputSent(), [['Page.handleJavaScriptDialog', { accept: true, promptText: 'p' }, undefined]]);
    assert.deepEqual(decided, []);
  });

  it('the key witness tells the frames of denied sites that got keys anyway', async () => {
    reset();
    const release = openCall(9, TOP, 49);
    try {
      witnessed = [
        { frameId: 0, result: { n: 2, url: TOP } },
        { frameId: 3, result: { n: 1, url: D } },
        { frameId: 4, result: { n: 5, url: B } },
        { frameId: 5, result: { n: 0, url: D } },
      ];
      const read = await keyWitness(9);
      const stray = await strayKeys(9, await read());
      assert.deepEqual(stray, [{ url: D, n: 1, site: 'http://localhost:9' }]);
    } finally {
      release();
      witnessed = [];
    }
  });

  it('a held key: the held top document has the focus, so the key goes, bound to it', async () => {
    reset();
    holdInTop = true;
    const release = openCall(10, TOP, 50);
    try {
      await heldKey(10, Op.KEY, key, { bind: Bind.focus(() => assert.fail('the held page said where the focus is')) });
      assert.deepEqual(inputSent().map(([m]) => m), ['Input.dispatchKeyEvent']);
      assert.deepEqual(decided, []);
    } finally {
      release();
    }
  });

  it('a held key: the focus in a frame of a denied site is refused, nothing sent', async () => {
    reset();
    holdInTop = false;
    const release = openCall(11, TOP, 51);
    try {
      await assert.rejects(heldKey(11, Op.KEY, key, { bind: Bind.focus(() => [D]) }), Denied);
      assert.deepEqual(inputSent(), []);
      // The page moving it to and fro (no frame found holding it): tried again, then refused.
      await assert.rejects(heldKey(11, Op.KEY, key, { bind: Bind.focus(() => []) }), /kept moving the focus/);
      assert.deepEqual(inputSent(), []);
    } finally {
      release();
      holdInTop = true;
    }
  });
});
