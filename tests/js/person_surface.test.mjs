// extension/worker/person_surface.js (and person_asks.js) without a browser:
// the real native_port.js on a stand-in native port plays the host (it sends
// person.ask / person.close, answers person.answer), stand-ins of
// chrome.windows / tabs / runtime.onConnect play Chrome and the surface page.
// One window shows the queue; only the surface page of that window may
// answer; the person's choice goes to the host once; a window closed without
// a button answers the refusal; person.close and a lost host end the asks.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromeEvents } from './chrome_events.mjs';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');
const ORIGIN = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/';

const { event, fire } = chromeEvents();
const calls = []; // [api, ...args] of the chrome.* calls that act
let nextWindowId = 100;
const tabWindows = new Map([[7, 3]]); // tabId -> windowId

// The native port: what the worker posted, and a way to speak as the host.
let hostPort = null;
const posted = [];
function connectNative() {
  const onMessage = chromeEvents();
  const onDisconnect = chromeEvents();
  hostPort = {
    onMessage: onMessage.event('m'),
    onDisconnect: onDisconnect.event('d'),
    postMessage: (msg) => posted.push(msg),
    disconnect: () => {},
    fromHost: (msg) => onMessage.fire('m', msg),
    lose: () => onDisconnect.fire('d'),
  };
  return hostPort;
}

globalThis.chrome = {
  runtime: {
    id: 'abcdefghijklmnopabcdefghijklmnop',
    getURL: (p) => ORIGIN + p,
    getManifest: () => ({ version: '0' }),
    connectNative,
    onStartup: event('runtime.onStartup'),
    onConnect: event('runtime.onConnect'),
  },
  alarms: { onAlarm: event('alarms.onAlarm'), get: async () => ({}), create: () => {} },
  windows: {
    onRemoved: event('windows.onRemoved'),
    create: async (opts) => {
      calls.push(['windows.create', opts]);
      return { id: nextWindowId++ };
    },
    update: async (id, opts) => { calls.push(['windows.update', id, opts]); },
    getLastFocused: async () => ({ id: 3, left: 100, top: 50, width: 1200, height: 800 }),
    remove: async (id) => { calls.push(['windows.remove', id]); },
  },
  tabs: {
    get: async (tabId) => ({ id: tabId, windowId: tabWindows.get(tabId) }),
    update: async (tabId, opts) => { calls.push(['tabs.update', tabId, opts]); },
  },
};

const nativePort = await import(path.join(EXTENSION, 'worker/native_port.js'));
const { SURFACE_SIZE: { width: W, height: H }, placeIn, registerPersonSurface, surfaceState, SURFACE_PAGE, SURFACE_PORT } =
  await import(path.join(EXTENSION, 'worker/person_surface.js'));
const { AskQueue, normaliseAsk } = await import(path.join(EXTENSION, 'worker/person_asks.js'));
const { asciiSite, viewOf } = await import(path.join(EXTENSION, 'surface/ask_view.js'));

registerPersonSurface();
nativePort.start(async () => ({ protocol: 2 }));

// Lets the worker's promise chains run (the stand-ins resolve at once).
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};
const ask = (params) => hostPort.fromHost({ jsonrpc: '2.0', method: 'person.ask', params });
const close = (askId) => hostPort.fromHost({ jsonrpc: '2.0', method: 'person.close', params: { askId } });
const grant = (askId, site = 'github.com') =>
  ({ askId, kind: 'grant', client: 'claude-code', tabId: null, timeoutMs: 60000, site, access: 'act' });
const handoff = (askId, tabId = null) =>
  ({ askId, kind: 'handoff', client: 'claude-code', tabId, timeoutMs: 60000, message: 'Log in, please' });

// person.answer requests the worker sent since last asked; each is answered ok.
function answers() {
  const sent = posted.splice(0).filter((m) => m.method === 'person.answer');
  for (const m of sent) hostPort.fromHost({ jsonrpc: '2.0', id: m.id, result: { ok: true } });
  return sent.map((m) => m.params);
}
const taken = (api) => {
  const found = calls.filter((c) => c[0] === api);
  calls.length = 0;
  return found;
};

// The surface page connecting from `windowId` (url and extension id: the surface page's, unless given).
function page(windowId, { url = `${ORIGIN}${SURFACE_PAGE}?ask=1`, id = globalThis.chrome.runtime.id } = {}) {
  const onMessage = chromeEvents();
  const onDisconnect = chromeEvents();
  const p = {
    name: SURFACE_PORT,
    sender: { id, url, tab: { id: 900, windowId } },
    shown: [],
    disconnected: false,
    onMessage: onMessage.event('m'),
    onDisconnect: onDisconnect.event('d'),
    postMessage: (msg) => p.shown.push(msg),
    disconnect: () => { p.disconnected = true; },
    click: (askId, choice) => onMessage.fire('m', { op: 'answer', askId, choice }),
    say: (msg) => onMessage.fire('m', msg),
  };
  fire('runtime.onConnect', p);
  return p;
}

describe('person_asks', () => {
  it('reads person.ask params into an ask, or null when it cannot be shown', () => {
    assert.deepEqual(normaliseAsk(grant(1)), { ...grant(1), message: '' });
    assert.equal(normaliseAsk({ ...grant(1), askId: '1' }), null);
    assert.equal(normaliseAsk({ ...grant(1), kind: 'other' }), null);
    assert.equal(normaliseAsk({ ...grant(1), site: '' }), null);
    const odd = normaliseAsk({ askId: 2, kind: 'handoff', tabId: 'x', timeoutMs: -1, message: 'm'.repeat(5000) });
    assert.equal(odd.tabId, null);
    assert.equal(odd.timeoutMs, null);
    assert.equal(odd.message.length, 2000);
  });

  it('queues asks oldest first and says when the head changes', () => {
    const q = new AskQueue();
    assert.equal(q.add(normaliseAsk(grant(1))), true);
    assert.equal(q.add(normaliseAsk(grant(2))), false);
    assert.equal(q.remove(2), false);
    assert.equal(q.remove(1), true);
    assert.equal(q.head(), null);
  });

  it('the heading is the site and the access; the client\'s name is a labelled line of its own', () => {
    const v = viewOf(normaliseAsk(grant(1)));
    assert.equal(v.heading, 'Let an agent read and act on github.com?');
    assert.equal(v.asker, 'Asked by the MCP client that calls itself: claude-code');
    assert.deepEqual(v.buttons.map((b) => [b.choice, b.label]), [['once', 'Allow once'], ['deny', 'Deny']]);
    assert.deepEqual([v.always.choice, v.always.box], ['always', 'Always allow github.com, in every session'],
      '"Always" is a box to tick, then its confirm button');
    const headings = ['read', 'eval', 'download'].map((access) => viewOf(normaliseAsk({ ...grant(1), access })).heading);
    assert.deepEqual(headings, ['Let an agent read github.com?', 'Let an agent run JavaScript on github.com?',
      'Let an agent download from github.com?']);
    // A name that reads as a sentence of ours stays in its labelled line; the heading is unchanged.
    const posing = viewOf(normaliseAsk({ ...grant(1), client: 'tabbridge: your bank asks' }));
    assert.equal(posing.heading, 'Let an agent read and act on github.com?');
    assert.equal(viewOf(normaliseAsk({ ...grant(1), client: '' })).asker, '');
  });

  it('a site in Unicode is shown in punycode', () => {
    assert.equal(asciiSite('аpple.com'), 'xn--pple-43d.com');
    assert.equal(asciiSite('bücher.example:8080'), 'xn--bcher-kva.example:8080');
    assert.equal(viewOf(normaliseAsk(grant(1, 'аpple.com'))).heading, 'Let an agent read and act on xn--pple-43d.com?');
  });

  it('a hand-off shows the model\'s message as the agent\'s, as it is', () => {
    const h = viewOf(normaliseAsk({ ...handoff(2), message: '<img src=x onerror=alert(1)>', client: '' }));
    assert.equal(h.message, '<img src=x onerror=alert(1)>');
    assert.equal(h.heading, 'An agent hands the browser to you');
    assert.equal(h.always, null);
    assert.deepEqual(h.buttons.map((b) => b.choice), ['done', 'cannot']);
  });

  it('the window goes to a random place inside the area, never over the point it must avoid', () => {
    const area = { left: 0, top: 0, width: 1280, height: 900 };
    const seen = new Set();
    for (let i = 0; i < 50; i++) {
      const p = placeIn(area, { x: 640, y: 450 });
      assert.ok(p, 'a place was found');
      assert.ok(p.left >= 0 && p.left + W <= 1280 && p.top >= 0 && p.top + H <= 900, JSON.stringify(p));
      const covers = 640 >= p.left - 48 && 640 <= p.left + W + 48 && 450 >= p.top - 48 && 450 <= p.top + H + 48;
      assert.equal(covers, false, `${JSON.stringify(p)} covers the point`);
      seen.add(`${p.left},${p.top}`);
    }
    assert.ok(seen.size > 40, 'places vary');
    assert.equal(placeIn({ left: 0, top: 0, width: W, height: H }, { x: 10, y: 10 }), null, 'no room: none');
  });
});

describe('person_surface', () => {
  it('the first ask opens one small popup window; the next waits behind it', async () => {
    await settle();
    ask(grant(1));
    await settle();
    const [[, opts]] = taken('windows.create');
    assert.equal(opts.type, 'popup');
    assert.equal(opts.url, `${ORIGIN}${SURFACE_PAGE}?ask=1`);
    assert.equal(opts.focused, true);
    assert.ok(opts.left >= 100 && opts.left <= 100 + 1200 - W && opts.top >= 50 && opts.top <= 50 + 800 - H,
      `over the browser window the person last used: ${JSON.stringify(opts)}`);
    ask(grant(2, 'example.org'));
    await settle();
    assert.equal(taken('windows.create').length, 0, 'one window for the queue');
    assert.equal(surfaceState().ask.askId, 1);
    assert.equal(surfaceState().waiting, 1);
  });

  it('only the surface page of that window may connect; it is shown the head', async () => {
    const { windowId } = surfaceState();
    const elsewhere = page(windowId + 1);
    const otherPage = page(windowId, { url: `${ORIGIN}popup/popup.html` });
    const stranger = page(windowId, { id: 'someone-else' });
    await settle();
    for (const p of [elsewhere, otherPage, stranger]) {
      assert.equal(p.disconnected, true);
      assert.deepEqual(p.shown, []);
    }
    const ours = page(windowId);
    await settle();
    assert.equal(ours.disconnected, false);
    assert.equal(ours.shown.at(-1).ask.askId, 1);
    assert.equal(ours.shown.at(-1).waiting, 1);
    globalThis.surfacePage = ours;
  });

  it('the page\'s moveAway moves the window off the point it names; a malformed one moves nothing', async () => {
    const ours = globalThis.surfacePage;
    const { windowId } = surfaceState();
    const area = { left: 0, top: 0, width: 1280, height: 900 };
    taken('windows.update');
    for (const bad of [{ x: '1', y: 2, screen: area }, { x: 1, y: 2, screen: { ...area, width: 0 } }, { x: 1, y: 2 }]) {
      ours.say({ op: 'moveAway', ...bad });
    }
    await settle();
    assert.deepEqual(taken('windows.update'), []);
    ours.say({ op: 'moveAway', askId: 1, x: 640, y: 450, screen: area });
    await settle();
    const [[, id, place]] = taken('windows.update');
    assert.equal(id, windowId);
    assert.ok(640 < place.left - 48 || 640 > place.left + W + 48 || 450 < place.top - 48 || 450 > place.top + H + 48,
      `moved off the point: ${JSON.stringify(place)}`);
  });

  it('a click sends person.answer once; a wrong choice or an unknown ask sends nothing', async () => {
    const ours = globalThis.surfacePage;
    ours.click(1, 'done'); // not a grant's choice
    ours.click(99, 'deny'); // no such ask
    await settle();
    assert.deepEqual(answers(), []);
    ours.click(1, 'always');
    ours.click(1, 'deny'); // the second click of a double click
    await settle();
    assert.deepEqual(answers(), [{ askId: 1, choice: 'always' }]);
    assert.equal(ours.shown.at(-1).ask.askId, 2, 'the next ask shows');
    assert.equal(ours.shown.at(-1).waiting, 0);
    ours.click(2, 'deny');
    await settle();
    assert.deepEqual(answers(), [{ askId: 2, choice: 'deny' }]);
    const removed = taken('windows.remove');
    assert.equal(removed.length, 1, 'nothing left: the window closes');
    ask(grant(10)); // comes before Chrome says the old window went
    await settle();
    const newer = surfaceState().windowId;
    assert.notEqual(newer, removed[0][1]);
    fire('windows.onRemoved', removed[0][1]);
    await settle();
    assert.deepEqual(answers(), [], 'our own close is not the person\'s refusal');
    assert.equal(surfaceState().windowId, newer);
    close(10);
    await settle();
    fire('windows.onRemoved', taken('windows.remove')[0][1]);
    assert.equal(surfaceState().windowId, null);
  });

  it('a window the person closes answers its ask\'s refusal; the next ask opens a new window', async () => {
    ask(grant(3));
    ask(handoff(4));
    await settle();
    const first = surfaceState().windowId;
    taken('windows.create');
    fire('windows.onRemoved', first);
    await settle();
    assert.deepEqual(answers(), [{ askId: 3, choice: 'deny' }]);
    assert.equal(taken('windows.create').length, 1);
    const second = surfaceState().windowId;
    assert.notEqual(second, first);
    fire('windows.onRemoved', second);
    await settle();
    assert.deepEqual(answers(), [{ askId: 4, choice: 'cannot' }]);
    assert.equal(taken('windows.create').length, 0);
  });

  it('person.close takes an ask off without an answer; the last one closes the window', async () => {
    ask(grant(5));
    ask(grant(6));
    await settle();
    close(6); // behind the head
    close(42); // unknown
    await settle();
    assert.equal(surfaceState().ask.askId, 5);
    assert.equal(surfaceState().waiting, 0);
    close(5);
    await settle();
    assert.equal(taken('windows.remove').length, 1);
    assert.deepEqual(answers(), []);
  });

  it('a hand-off brings its tab to the front and its window forward before the surface opens', async () => {
    calls.length = 0;
    ask(handoff(8, 7));
    await settle();
    const acts = calls.splice(0).map((c) => c.slice(0, 2).join(' '));
    assert.deepEqual(acts, ['windows.update 3', 'tabs.update 7', 'windows.create [object Object]']);
  });

  it('a lost host ends every ask and closes the window', async () => {
    hostPort.lose();
    await settle();
    assert.equal(taken('windows.remove').length, 1);
    assert.equal(surfaceState().ask, null);
    assert.deepEqual(answers(), []);
  });
});
