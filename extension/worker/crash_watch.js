// Tabs whose renderer crashed ("Aw, Snap!"). Chrome fires no tab event for a
// crash (the tab's status silently becomes "unloaded"), so two signals tell:
//   * CDP Inspector.targetCrashed, for tabs the debugger is attached to;
//   * the `tabbridge.alive` port own_tools_relay.js holds open from the top
//     frame of every http(s) page: it closes when the page goes, and a tab left
//     "unloaded" (not discarded) after that has crashed, not navigated.
// A crashed tab stays listed (the host shows `crashed: true`) with its own
// tools gone; page tools answer "crashed — reload it or close it" except
// navigate (which reloads it) and console_logs / network_errors (what led up
// to the crash). Loading anything in it ends the crash.
//
//   isCrashed(tabId), looksCrashed(tab), onTabCrashed((tabId) => ...); the
//   page tools' answer for a crashed tab is tools/stack/page_tool.js's.

import { onCdpEvent } from './cdp.js';
import { restoring } from './session_store.js';
import { crashedTabs, onForget } from './tab_state.js';

const ALIVE_PORT = 'tabbridge.alive'; // own_tools_relay.js opens it
const STORE_KEY = 'tabbridge.crashed';
// Status settles shortly after the port closes; look again a little later.
const RECHECK_MS = [0, 250, 1000];

const crashed = crashedTabs; // tabId -> true (tab_state.js drops it with the tab)
const listeners = [];

export const isCrashed = (tabId) => crashed.has(tabId);
export const onTabCrashed = (fn) => listeners.push(fn);

// No renderer behind the tab, and not because the browser discarded it.
export const looksCrashed = (tab) => tab.status === 'unloaded' && !tab.discarded;

const save = () => chrome.storage.session.set({ [STORE_KEY]: [...crashed.keys()] }).catch(() => {});

function noteCrash(tabId) {
  if (crashed.has(tabId)) return;
  crashed.set(tabId, true);
  save();
  console.info(`tabbridge: tab ${tabId} crashed`);
  for (const fn of listeners) {
    try {
      fn(tabId);
    } catch (e) {
      console.info(`tabbridge: crash listener failed: ${e.message}`);
    }
  }
}

function forget(tabId) {
  if (crashed.delete(tabId)) save();
}

async function checkAfterPageWent(tabId) {
  for (const wait of RECHECK_MS) {
    if (wait) await new Promise((r) => setTimeout(r, wait));
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (!tab || tab.status === 'loading') return; // closed, or a navigation
    if (looksCrashed(tab)) return noteCrash(tabId);
  }
}

// Must run synchronously at the service worker's top level.
export function registerCrashWatch() {
  restoring(chrome.storage.session.get(STORE_KEY).then((got) => {
    for (const id of got[STORE_KEY] ?? []) if (Number.isInteger(id)) crashed.set(id, true);
  }));
  onCdpEvent('Inspector.targetCrashed', (tabId, params, sessionId) => {
    if (!sessionId) noteCrash(tabId); // a child session's crash is an iframe's
  });
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== ALIVE_PORT || port.sender?.id !== chrome.runtime.id) return;
    const tabId = port.sender.tab?.id;
    if (!Number.isInteger(tabId) || port.sender.frameId !== 0) return port.disconnect();
    port.onDisconnect.addListener(() => {
      void chrome.runtime.lastError;
      checkAfterPageWent(tabId);
    });
  });
  chrome.tabs.onUpdated.addListener((tabId, change) => {
    if (change.status === 'loading') forget(tabId); // reloaded or navigated: alive again
  });
  onForget((tabId, dropped) => {
    if (dropped.includes(crashed)) save();
  });
}
