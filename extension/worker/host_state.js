// What the host last said of itself (host.state: its version, policy and the
// attached sessions, docs/protocol.md "The popup") and the toolbar badge that
// shows it: the number of attached agents, nothing while none is attached or
// no host is connected; the title says which. popup_api.js reads it.

import { Notification } from './protocol.js';
import { onConnected, onDisconnected, registerNotification } from './native_port.js';
import { normaliseGrant } from './grants.js';

let latest = null; // host.state params of the open port, or null
let lastClose = null; // why the last port closed, while none is open

export const hostState = () => latest;
export const lastDisconnect = () => lastClose;

// fn(state) after every host.state, and fn(null) when the port closes (tab_groups.js: the badges on tabs).
const listeners = [];
export const onHostState = (fn) => listeners.push(fn);
const tell = () => listeners.forEach((fn) => fn(latest));

// host.state as the worker keeps it: only well-formed sessions and grants
// (the host is ours, but a popup must not throw on an odd field).
export function normaliseState(params) {
  const p = params && typeof params === 'object' ? params : {};
  const host = p.host && typeof p.host === 'object' ? p.host : {};
  const sessions = Array.isArray(p.sessions) ? p.sessions : [];
  const grants = Array.isArray(p.grants) ? p.grants : [];
  return {
    host: { version: typeof host.version === 'string' ? host.version : '', pid: Number.isInteger(host.pid) ? host.pid : null },
    policy: p.policy && typeof p.policy === 'object' ? p.policy : null,
    sessions: sessions.filter((s) => s && Number.isInteger(s.id)).map((s) => ({
      id: s.id,
      client: {
        name: typeof s.client?.name === 'string' ? s.client.name : '',
        version: typeof s.client?.version === 'string' ? s.client.version : '',
      },
      focusedTabId: Number.isInteger(s.focusedTabId) ? s.focusedTabId : null,
      readOnly: s.readOnly === true,
      lastTool: typeof s.lastTool?.name === 'string' && Number.isFinite(s.lastTool?.at)
        ? { name: s.lastTool.name, at: s.lastTool.at } : null,
    })),
    grants: grants.map(normaliseGrant).filter((g) => g !== null),
    // Some session has the network capability: request_log.js keeps its log.
    [Notification.HOST_STATE_NETWORK_LOG]: p[Notification.HOST_STATE_NETWORK_LOG] === true,
  };
}

// The badge for a state (null: no host): {text, color, title}.
export function badgeFor(state, closeReason = null) {
  if (!state) {
    return {
      text: '',
      color: '#6e7781',
      title: `tabbridge: not connected to the host${closeReason ? ` (${closeReason})` : ''}`,
    };
  }
  const n = state.sessions.length;
  return {
    text: n > 0 ? String(n) : '',
    color: '#1a7f37',
    title: `tabbridge: connected — ${n === 0 ? 'no agent attached' : n === 1 ? '1 agent attached' : `${n} agents attached`}`,
  };
}

function showBadge() {
  const { text, color, title } = badgeFor(latest, lastClose);
  // The action API is absent in odd contexts (tests without a toolbar); never throw from here.
  Promise.all([
    chrome.action?.setBadgeText({ text }),
    chrome.action?.setBadgeBackgroundColor({ color }),
    chrome.action?.setTitle({ title }),
  ]).catch((e) => console.debug(`tabbridge: badge: ${e.message}`));
}

// Must run synchronously at the service worker's top level.
export function registerHostState() {
  registerNotification(Notification.HOST_STATE, (params) => {
    latest = normaliseState(params);
    lastClose = null;
    showBadge();
    tell();
  });
  // The host sends host.state right after hello; until then nothing is known.
  onConnected(() => { lastClose = null; });
  onDisconnected((reason) => {
    latest = null;
    lastClose = reason;
    showBadge();
    tell();
  });
  showBadge();
}
