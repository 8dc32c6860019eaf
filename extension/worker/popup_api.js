// The popup's questions and buttons (extension/popup/), over
// chrome.runtime messaging: {type: 'tabbridge.popup', op, ...}, answered
// {ok: true, ...} or {ok: false, error}. Only the popup page may ask — a
// content script has the extension's id too, so the sender's URL decides.
//   state {tabId?}          what the popup shows (below)
//   detach {tabId}          tab.detach: the agents on this tab lose it
//   disconnect {sessionId}  session.disconnect: the host closes that session
//   revoke {site, scope, sessionId?}  grant.revoke: the person takes a site grant back

import { HostRequest, isAgentUrl } from './protocol.js';
import { isConnected, requestHost } from './native_port.js';
import { hostState, lastDisconnect } from './host_state.js';
import { revokeParams } from './grants.js';
import { browserInfo } from './browser_info.js';
import { ownToolLists } from './tab_state.js';
import { tabUrl } from './site_key.js';
import { freshTab } from './tab_cache.js';
import { cut } from './text_cut.js';

export const POPUP_MESSAGE = 'tabbridge.popup';
const MAX_TOOLS_SHOWN = 50;
const MAX_DESCRIPTION = 160;

const tabBrief = (tab) => (tab ? { id: tab.id, title: tab.title ?? '', url: tabUrl(tab) } : null);
const getTab = async (tabId) => (Number.isInteger(tabId) ? freshTab(tabId) : null);

// The tab's own tools as the worker knows them (tools/own/own_tools.js).
function ownToolsOf(tabId) {
  const list = ownToolLists.get(tabId);
  if (!list) return { api: null, total: 0, tools: [] };
  return {
    api: list.api,
    total: list.total,
    tools: list.tools.slice(0, MAX_TOOLS_SHOWN).map((t) => ({
      name: t.name,
      source: t.source,
      readOnly: t.readOnly ?? null,
      description: typeof t.description === 'string' ? cut(t.description, MAX_DESCRIPTION) : '',
    })),
  };
}

async function policyFor(url) {
  if (!isConnected() || !url) return null;
  try {
    return await requestHost(HostRequest.POLICY_CHECK, { url });
  } catch (e) {
    return { error: e.message };
  }
}

async function state({ tabId }) {
  const host = isConnected() ? hostState() : null;
  const [browser, tab] = await Promise.all([browserInfo(), getTab(tabId)]);
  const sessions = await Promise.all((host?.sessions ?? []).map(async (s) => ({
    ...s,
    focusedTab: tabBrief(await getTab(s.focusedTabId)),
  })));
  const here = tab ? {
    ...tabBrief(tab),
    agentUrl: isAgentUrl(tabUrl(tab)),
    ownTools: ownToolsOf(tab.id),
    policy: await policyFor(tabUrl(tab)),
  } : null;
  return {
    connected: host !== null,
    lastError: host ? null : lastDisconnect(),
    host: host?.host ?? null,
    policy: host?.policy ?? null,
    browser: { name: browser.name, version: browser.version },
    extension: { version: chrome.runtime.getManifest().version },
    sessions,
    // A session grant without its client's name: the session's, as host.state lists it.
    grants: (host?.grants ?? []).map((g) => ({
      ...g,
      client: g.client || (host.sessions.find((x) => x.id === g.sessionId)?.client.name ?? ''),
    })),
    tab: here,
  };
}

async function answer(msg) {
  if (msg.op === 'state') return state(msg);
  if (msg.op === 'detach') {
    if (!Number.isInteger(msg.tabId)) throw new Error('detach needs a tabId (an integer)');
    return requestHost(HostRequest.DETACH_TAB, { tabId: msg.tabId });
  }
  if (msg.op === 'disconnect') {
    if (!Number.isInteger(msg.sessionId)) throw new Error('disconnect needs a sessionId (an integer)');
    return requestHost(HostRequest.DISCONNECT_SESSION, { sessionId: msg.sessionId });
  }
  if (msg.op === 'revoke') return requestHost(HostRequest.GRANT_REVOKE, revokeParams(msg));
  throw new Error(`unknown popup request ${String(msg.op)}`);
}

// Must run synchronously at the service worker's top level.
export function registerPopupApi() {
  const popupPages = chrome.runtime.getURL('popup/');
  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    if (msg?.type !== POPUP_MESSAGE) return false;
    if (sender.id !== chrome.runtime.id || !String(sender.url ?? '').startsWith(popupPages)) return false;
    answer(msg).then(
      (result) => sendResponse({ ok: true, result }),
      (e) => sendResponse({ ok: false, error: String(e?.message ?? e) }),
    );
    return true; // answers asynchronously
  });
}
