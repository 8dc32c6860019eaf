// Per-tab state: every map the worker keeps by tabId for a tab's life, in one
// place, and the one cleanup. When a tab goes (closed, or replaced by a
// prerendered one under a new id) its entry goes from every map here, and
// then the onForget hooks drop what was saved of it (chrome.storage.session);
// when the debugger lets a tab go, the maps that describe the debugged page
// (marked untilDetach) forget it too. Changes of state within a tab's life
// (a navigation, a dialog closing) stay with the module that owns the data.
//
// Not here: cdp.js's own attach bookkeeping (attached, stalled, users, child
// sessions — the debugger connection itself) and short-lived subscriptions
// (dialog waiters, debugger_release.js's idle timers) that end by themselves.

import { onDetach } from './cdp.js';

const maps = []; // {map, untilDetach}
const forgetHooks = [];
const replacedHooks = [];

function tabMap({ untilDetach = false } = {}) {
  const map = new Map();
  maps.push({ map, untilDetach });
  return map;
}

// tab_cache.js: tabId -> the chrome.tabs.Tab as of its last event or look; tabId -> how many
// events touched it (a chrome.tabs.get answer older than an event that came meanwhile is not kept).
export const knownTabs = tabMap();
export const tabTouches = tabMap();
// console_capture.js: tabId -> console entries, oldest first; tabId -> {tokens, at}, the console.entry event budget.
export const consoleBuffers = tabMap();
export const consoleEventBudget = tabMap();
// network_log.js: tabId -> failed requests; tabId -> Map(requestId -> {url, type, start}) in flight;
// tabId -> {url, status, statusLine, timestamp} of the last main-frame response; tabId -> when
// (epoch ms) its newest fetch/XHR started.
export const networkFailures = tabMap();
export const requestsInFlight = tabMap();
export const mainFrameResponses = tabMap();
export const lastFetchStarts = tabMap();
// request_log.js: tabId -> the requests of the tab's current document ({list, byId, cdp, bodyChars}).
export const requestLogs = tabMap();
// tools/snapshot.js: tabId -> {id, lines, onScreen, viewport}, the last snapshot (its cursor pages through its lines).
export const snapshotCache = tabMap();
// tools/shared/refs.js: tabId -> {next, frames: {frameId: idx}, nextFrame} (also saved: refs.js).
export const refCounters = tabMap();
// tools/evaluate.js: tabId -> Map(key -> {id, frameId, origin, sessionId}), the page's execution
// contexts; tabId -> Map(sessionId -> {url, targetId}) of out-of-process iframes. Both from CDP events.
export const executionContexts = tabMap({ untilDetach: true });
export const frameSessions = tabMap({ untilDetach: true });
// dialogs.js: tabId -> the JavaScript dialog open in it (seen through CDP; also saved: dialogs.js).
export const openDialogs = tabMap({ untilDetach: true });
// tools/emulate.js: tabId -> what emulate set on the tab (its overrides live as long as the debugger's attach).
export const emulations = tabMap({ untilDetach: true });
// crash_watch.js: tabId -> true while the tab's renderer is crashed (also saved: crash_watch.js).
export const crashedTabs = tabMap();
// tools/stack/agent_runner.js: tabId -> Set of frameIds whose document has this worker's page agent.
export const agentFrames = tabMap();
// tools/own/own_tools.js: tabId -> the last tool list of the tab's top document; tabId -> the
// report waiting for the tab's next interval; tabId -> when its last report was handed on.
export const ownToolLists = tabMap();
export const waitingReports = tabMap();
export const reportedAt = tabMap();

// fn(tabId, droppedMaps, why) after a cleanup (why: 'gone' or 'detached'),
// for what was saved of the dropped entries (chrome.storage.session).
export const onForget = (fn) => forgetHooks.push(fn);
// fn(added, removed) before `removed` is forgotten: carry over what the new tab keeps.
export const onTabReplaced = (fn) => replacedHooks.push(fn);

function forget(tabId, why) {
  const dropped = maps.filter(({ map, untilDetach }) => (why === 'gone' || untilDetach) && map.delete(tabId)).map(({ map }) => map);
  for (const fn of forgetHooks) run(fn, tabId, dropped, why);
}

function run(fn, ...args) {
  try {
    fn(...args);
  } catch (e) {
    console.info(`tabbridge: per-tab cleanup failed: ${e.message}`);
  }
}

// Listeners at import time = the service worker's top level.
chrome.tabs.onRemoved.addListener((tabId) => forget(tabId, 'gone'));
chrome.tabs.onReplaced.addListener((added, removed) => {
  for (const fn of replacedHooks) run(fn, added, removed);
  forget(removed, 'gone');
});
onDetach((tabId) => forget(tabId, 'detached'));
