// The person's surface (docs/protocol.md "The person's surface"): the host's
// `person.ask` (a site grant, or a hand-off) shown in one small extension
// window of our own (surface/surface.html), which no page can see, script or
// cover: it is not a web-accessible resource, and it is a window of its own.
// Asks queue in that one window, oldest first ("2 more waiting"), so several
// agents' questions never pile windows over the page; a hand-off brings its
// tab forward (tab active, its window focused) before the window shows it.
// The window opens at a random place over the browser window the person last
// used, not at a spot a page could work out from its own window's place, and
// moves elsewhere when the page reports a click of a pointer at rest under it
// (a click meant for the page that was there: surface/arming.js).
// The surface page talks to this module over a chrome.runtime port, accepted
// only from the surface page in the window this module opened; its answer
// goes to the host as `person.answer`. `person.close` takes an ask off (timed
// out, answered elsewhere). A window the person closes without a button
// answers the ask it showed with its refusal (deny / cannot); the next ask
// opens a new window.

import { HostRequest, Notification } from './protocol.js';
import { onDisconnected, registerNotification, requestHost } from './native_port.js';
import { AskQueue, REFUSAL, isChoice, normaliseAsk } from './person_asks.js';

export const SURFACE_PAGE = 'surface/surface.html';
export const SURFACE_PORT = 'tabbridge.surface';
const WIDTH = 480;
const HEIGHT = 360;
export const SURFACE_SIZE = Object.freeze({ width: WIDTH, height: HEIGHT });

const queue = new AskQueue();
let windowId = null; // the surface window, once created
let opening = null; // chrome.windows.create under way: resolves to its id or null
let page = null; // the surface page's port
const closingOurselves = new Set(); // window ids we remove: not the person's refusal

const log = (what, e) => console.info(`tabbridge: surface: ${what}: ${e?.message ?? e}`);

// What the page shows: the head ask and how many wait behind it.
const view = () => ({ ask: queue.head(), waiting: Math.max(0, queue.size - 1) });

function push() {
  try {
    page?.postMessage({ op: 'show', ...view() });
  } catch (e) {
    log('push', e);
  }
}

// A hand-off's tab to the front of its window, and that window forward.
async function bringForward(tabId) {
  const tab = await chrome.tabs.get(tabId);
  await chrome.windows.update(tab.windowId, { focused: true });
  await chrome.tabs.update(tabId, { active: true });
}

const randomBelow = (n) => crypto.getRandomValues(new Uint32Array(1))[0] % Math.max(1, Math.floor(n));
const isInt = (v) => Number.isSafeInteger(v);
const isArea = (a) => a && [a.left, a.top, a.width, a.height].every(isInt) && a.width > 0 && a.height > 0;

// A random place for the window inside `area` ({left, top, width, height}) whose
// rectangle, with a margin, leaves `point` out (null: any); null when none was found.
export function placeIn(area, point = null, random = randomBelow) {
  const margin = 48;
  for (let i = 0; i < 32; i++) {
    const left = area.left + random(Math.max(1, area.width - WIDTH));
    const top = area.top + random(Math.max(1, area.height - HEIGHT));
    const covers = point && point.x >= left - margin && point.x <= left + WIDTH + margin &&
      point.y >= top - margin && point.y <= top + HEIGHT + margin;
    if (!covers) return { left, top };
  }
  return null;
}

// Over the browser window the person last used, at a random place (for every new question);
// Chrome's place when there is none.
async function randomPlace() {
  const last = await chrome.windows.getLastFocused({ windowTypes: ['normal'] }).catch(() => null);
  return isArea(last) ? placeIn(last) ?? {} : {};
}

async function openWindow(askId) {
  const created = await chrome.windows.create({
    type: 'popup',
    url: chrome.runtime.getURL(`${SURFACE_PAGE}?ask=${askId}`),
    focused: true,
    width: WIDTH,
    height: HEIGHT,
    ...await randomPlace(),
  });
  return created.id;
}

// The page saw a click of a pointer that had not moved since the window appeared: elsewhere on the screen.
async function moveAway({ x, y, screen: area }) {
  if (windowId === null || !isInt(x) || !isInt(y) || !isArea(area)) return;
  const place = placeIn(area, { x, y });
  if (place) await chrome.windows.update(windowId, place);
}

async function ensureWindow(askId) {
  if (windowId !== null) {
    // A new question, a new place: a page that learnt where the last one was cannot count on it.
    await chrome.windows.update(windowId, { focused: true, ...await randomPlace() });
    return;
  }
  opening ??= openWindow(askId).catch((e) => {
    log('cannot open the window', e);
    return null;
  });
  const id = await opening;
  opening = null;
  if (id === null) return;
  windowId = id;
  if (queue.size === 0) closeWindow(); // every ask ended while it opened
}

// The head changed: show it (or close the window when none is left).
async function present() {
  const head = queue.head();
  if (!head) {
    closeWindow();
    return;
  }
  if (head.kind === 'handoff' && head.tabId !== null) {
    await bringForward(head.tabId).catch((e) => log(`cannot bring tab ${head.tabId} forward`, e));
  }
  if (queue.head() !== head) return; // a later present() has the newer head
  await ensureWindow(head.askId).catch((e) => log('cannot focus the window', e));
  push();
}

function closeWindow() {
  if (windowId === null) return;
  const id = windowId;
  windowId = null;
  page = null;
  closingOurselves.add(id);
  chrome.windows.remove(id).catch((e) => {
    closingOurselves.delete(id);
    log('cannot close the window', e);
  });
}

// The person's answer (or the refusal of a closed window): off the queue at
// once, so it is answered once; then to the host.
async function answer(askId, choice) {
  const ask = queue.get(askId);
  if (!ask || !isChoice(ask, choice)) return;
  const wasHead = queue.remove(askId);
  if (wasHead) present();
  else push();
  try {
    await requestHost(HostRequest.PERSON_ANSWER, { askId, choice });
  } catch (e) {
    log(`person.answer ${askId} ${choice}`, e); // the ask was over already (timed out, closed)
  }
}

function onAsk(params) {
  const ask = normaliseAsk(params);
  if (!ask) {
    log('person.ask', new Error(`cannot show ${JSON.stringify(params).slice(0, 200)}`));
    return;
  }
  if (queue.add(ask)) present();
  else push();
}

function onClose(params) {
  if (!queue.get(params?.askId)) return;
  if (queue.remove(params.askId)) present();
  else push();
}

function onWindowRemoved(id) {
  if (closingOurselves.delete(id) || id !== windowId) return;
  windowId = null;
  page = null;
  const head = queue.head();
  if (head) answer(head.askId, REFUSAL[head.kind]);
}

// The surface page of our window, and nothing else, may connect.
async function onConnect(port) {
  if (port.name !== SURFACE_PORT) return;
  const sender = port.sender ?? {};
  if (opening) await opening;
  const ours = sender.id === chrome.runtime.id && String(sender.url ?? '').startsWith(chrome.runtime.getURL(SURFACE_PAGE)) &&
    windowId !== null && sender.tab?.windowId === windowId;
  if (!ours) {
    port.disconnect();
    return;
  }
  page = port;
  port.onDisconnect.addListener(() => {
    if (page === port) page = null;
  });
  port.onMessage.addListener((msg) => {
    if (msg?.op === 'answer' && Number.isSafeInteger(msg.askId) && typeof msg.choice === 'string') {
      answer(msg.askId, msg.choice);
    } else if (msg?.op === 'moveAway') {
      moveAway(msg).catch((e) => log('cannot move the window', e));
    }
  });
  push();
}

// The surface as the tests and the popup see it.
export const surfaceState = () => ({ windowId, ...view() });

// Must run synchronously at the service worker's top level.
export function registerPersonSurface() {
  registerNotification(Notification.PERSON_ASK, onAsk);
  registerNotification(Notification.PERSON_CLOSE, onClose);
  chrome.windows.onRemoved.addListener(onWindowRemoved);
  chrome.runtime.onConnect.addListener((port) => {
    onConnect(port).catch((e) => log('connect', e));
  });
  // A new host knows none of the old one's asks.
  onDisconnected(() => {
    queue.clear();
    closeWindow();
  });
}
