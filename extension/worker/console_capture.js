// Console capture, service-worker side: a ring buffer of console entries per
// tab, filled by console_relay.js (which gets them from console_main.js, the
// MAIN-world wrapper of console.* and window error events). The buffer
// survives navigation within the tab and is dropped when the tab closes; its
// newest entries (up to PERSIST_BYTES a tab) also survive a service-worker
// restart, through chrome.storage.session (session_store.js).
// Entries of level error also go to the host as `console.entry` events
// (docs/protocol.md), which it sends focused sessions as notifications/message.

import { Event } from './protocol.js';
import { sendEvent } from './native_port.js';
import { newestWithin, restoring, tabStore } from './session_store.js';
import { consoleBuffers, consoleEventBudget, onForget, onTabReplaced } from './tab_state.js';
import { truncate } from './read_format.js';

export const CONSOLE_BUFFER_SIZE = 1000;
export const LEVELS = ['error', 'warn', 'info', 'log', 'debug'];
const MAX_TEXT = 10000;
const MAX_STACK = 4000;
// console.entry events: a page that throws in a loop must not flood the host.
const EVENT_BURST = 10;
const EVENT_REFILL_PER_S = 2;
const EVENT_TEXT_MAX = 1000;

// tabId -> entries, oldest first; tabId -> {tokens, at} (tab_state.js drops them with the tab).
const buffers = consoleBuffers;
const eventBudget = consoleEventBudget;
// What a restarted worker gets back of a tab's buffer: chrome.storage.session
// holds 10 MB for everything, so a tab keeps its newest entries up to this.
const PERSIST_BYTES = 96 * 1024;

const store = tabStore('console', (tabId) => newestWithin(buffers.get(tabId), PERSIST_BYTES));
let ready = Promise.resolve();

const MAIN_SCRIPT = 'page/console_main.js';
const RELAY_SCRIPT = 'page/console_relay.js';
const CAPTURED_URL = /^(https?|file):/;

// Must run synchronously at the service worker's top level.
export function registerConsoleCapture() {
  // Entries a restarted worker had: before the ones arriving meanwhile.
  ready = store.load().then((saved) => {
    for (const [tabId, entries] of saved) {
      if (!Array.isArray(entries)) continue;
      buffers.set(tabId, [...entries, ...(buffers.get(tabId) ?? [])].slice(-CONSOLE_BUFFER_SIZE));
    }
  });
  restoring(ready);
  chrome.runtime.onMessage.addListener((msg, sender) => {
    if (msg?.type !== 'tabbridge.console' || sender.id !== chrome.runtime.id) return;
    const tabId = sender.tab?.id;
    if (!Number.isInteger(tabId) || !Array.isArray(msg.entries)) return;
    for (const raw of msg.entries) {
      const entry = clean(raw, sender);
      if (entry) add(tabId, entry);
    }
  });
  onForget((tabId, dropped, why) => {
    if (why === 'gone') store.remove(tabId);
  });
  onTabReplaced((added, removed) => {
    const old = buffers.get(removed);
    if (old) buffers.set(added, [...old, ...(buffers.get(added) ?? [])].slice(-CONSOLE_BUFFER_SIZE));
    store.dirty(added);
  });
  // Manifest content scripts only reach pages loaded after the extension
  // (re)started; give the pages already open the capture from now on.
  chrome.runtime.onInstalled.addListener(() => injectIntoOpenTabs());
}

async function injectIntoOpenTabs() {
  const tabs = await chrome.tabs.query({});
  await Promise.all(tabs.filter((t) => CAPTURED_URL.test(t.url ?? '')).map(async (t) => {
    const target = { tabId: t.id, allFrames: true };
    try {
      await chrome.scripting.executeScript({ target, world: 'MAIN', files: [MAIN_SCRIPT], injectImmediately: true });
      await chrome.scripting.executeScript({ target, world: 'ISOLATED', files: [RELAY_SCRIPT], injectImmediately: true });
    } catch (e) {
      console.debug(`tabbridge: console capture not injected into tab ${t.id}: ${e.message}`);
    }
  }));
}

// Where an entry came from is the browser's word, never the page's: any
// frame (a third-party ad included) can dispatch the relay's event with any
// URL and time (docs/policy.md "Threat model"). The URL, origin and frame are
// the sender's; a time in the future or long past is the time it arrived.
const MAX_ENTRY_AGE_MS = 60_000;
function clean(raw, sender) {
  if (!raw || typeof raw !== 'object') return null;
  const level = LEVELS.includes(raw.level) ? raw.level : 'log';
  const now = Date.now();
  const said = Number(raw.timestamp);
  const entry = {
    level,
    text: truncate(raw.text, MAX_TEXT),
    timestamp: Number.isFinite(said) && said <= now && said >= now - MAX_ENTRY_AGE_MS ? said : now,
    url: sender.url ?? '',
  };
  if (typeof raw.stack === 'string' && raw.stack) entry.stack = truncate(raw.stack, MAX_STACK);
  if (sender.frameId) {
    entry.frameId = sender.frameId;
    if (sender.origin) entry.origin = sender.origin;
  }
  return entry;
}

function add(tabId, entry) {
  let list = buffers.get(tabId);
  if (!list) buffers.set(tabId, (list = []));
  list.push(entry);
  if (list.length > CONSOLE_BUFFER_SIZE) list.splice(0, list.length - CONSOLE_BUFFER_SIZE);
  store.dirty(tabId);
  if (entry.level === 'error' && takeEventToken(tabId)) {
    sendEvent(Event.CONSOLE_ENTRY, {
      tabId,
      level: entry.level,
      text: truncate(entry.text, EVENT_TEXT_MAX),
      timestamp: entry.timestamp,
      url: entry.url,
    });
  }
}

function takeEventToken(tabId) {
  const t = Date.now();
  const b = eventBudget.get(tabId) ?? { tokens: EVENT_BURST, at: t };
  b.tokens = Math.min(EVENT_BURST, b.tokens + ((t - b.at) / 1000) * EVENT_REFILL_PER_S);
  b.at = t;
  eventBudget.set(tabId, b);
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

// The tab's captured entries, oldest first, once a restarted worker has its
// saved ones back; saved before they are shown, so a restart right after an
// answer keeps what it showed (console_logs).
export async function consoleEntries(tabId) {
  await ready;
  await store.flush();
  return buffers.get(tabId) ?? [];
}
