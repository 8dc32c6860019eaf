// Tabs the person can see (docs/protocol.md "Tabs the person can see"):
//  * each session's tabs go into one tab group, titled with its MCP client's
//    name and coloured as the host chose (tabs.create's `group`);
//  * when the session ends (session.ended, or the host's port closing) its
//    group stays, retitled "<client> — ended" and grey: the tabs hold the
//    agent's work, and the person still sees which tabs an agent opened;
//  * a tab the person opened that a session is focused on (host.state) shows
//    a badge on the toolbar button while it is.
// Grouping is best effort: a browser without tab groups, or a tab that cannot
// be grouped (a popup window's), still opens; the failure is logged.

import { Notification } from './protocol.js';
import { onDisconnected, registerNotification } from './native_port.js';
import { badgeFor, hostState, onHostState } from './host_state.js';
import { cut } from './text_cut.js';

const COLORS = ['grey', 'blue', 'red', 'yellow', 'green', 'pink', 'purple', 'cyan', 'orange'];
const ENDED_COLOR = 'grey';
const MAX_TITLE_CHARS = 60; // a group's title shows on the tab strip
const BADGE_TEXT = 'AI';

const live = new Map(); // session key -> {groupIds (the newest last), title}
const ended = new Set(); // keys of sessions that ended (a tabs.create still running for one groups nothing)
const marked = new Map(); // tab id -> the title of its badge

// One change at a time: two tabs a session opens at once join one group.
let queue = Promise.resolve();
function serially(fn) {
  const run = queue.then(fn);
  queue = run.catch(() => {});
  return run;
}

const groupsAvailable = () => typeof chrome.tabGroups?.update === 'function' && typeof chrome.tabs.group === 'function';

// tabs.create's `group` {key, title, color}: a valid one, or null.
export function readGroup(group) {
  if (!group || typeof group !== 'object' || !Number.isInteger(group.key) || typeof group.title !== 'string') return null;
  return { key: group.key, title: cut(group.title, MAX_TITLE_CHARS), color: COLORS.includes(group.color) ? group.color : 'blue' };
}

// Puts tab `tabId` into its session's group (made on the session's first tab,
// or again when the person closed or ungrouped it). Never throws.
export function groupTab(tabId, given) {
  const group = readGroup(given);
  if (!group) return Promise.resolve(console.info(`tabbridge: tabs.create: ignoring a malformed group ${JSON.stringify(given)}`));
  if (!groupsAvailable()) return Promise.resolve(console.info('tabbridge: this browser has no tab groups; the tab stays ungrouped'));
  return serially(async () => {
    if (ended.has(group.key)) return;
    const known = live.get(group.key) ?? { groupIds: [], title: group.title };
    const newest = known.groupIds.at(-1);
    // The person closed or ungrouped it (or Chrome would not move the tab there): a group of its own again.
    const joined = newest === undefined ? null
      : await chrome.tabs.group({ groupId: newest, tabIds: [tabId] }).catch(() => null);
    if (joined === null) {
      const groupId = await chrome.tabs.group({ tabIds: [tabId] });
      await chrome.tabGroups.update(groupId, { title: group.title, color: group.color });
      known.groupIds.push(groupId);
    }
    live.set(group.key, known);
    await markTabs(hostState());
  }).catch((e) => console.info(`tabbridge: tab ${tabId} not grouped: ${e.message}`));
}

function endGroup(key, title) {
  return serially(async () => {
    ended.add(key);
    const group = live.get(key);
    live.delete(key);
    if (!group || !groupsAvailable()) return;
    for (const groupId of group.groupIds) {
      await chrome.tabGroups.update(groupId, { title: cut(title, MAX_TITLE_CHARS), color: ENDED_COLOR })
        .catch((e) => console.info(`tabbridge: the ended session's group: ${e.message}`)); // closed by the person
    }
  });
}

// session.ended {sessionId, title, color}; resolves once the group says so.
export function onSessionEnded(params) {
  if (!Number.isInteger(params?.sessionId) || typeof params.title !== 'string') return Promise.resolve();
  return endGroup(params.sessionId, params.title);
}

// The host went: every session it had is over. A new host numbers sessions
// afresh, so no key of the old one may name a group again.
function onHostGone() {
  for (const [key, group] of live) endGroup(key, `${group.title} — ended`);
  serially(() => ended.clear());
}

// The badge on tabs sessions are focused on that are in none of their groups.
async function markTabs(state) {
  const names = new Map(); // tab id -> the clients working in it
  for (const s of state?.sessions ?? []) {
    if (s.focusedTabId === null) continue;
    names.set(s.focusedTabId, [...(names.get(s.focusedTabId) ?? []), s.client.name || 'an agent']);
  }
  const grouped = new Set([...live.values()].flatMap((g) => g.groupIds));
  const now = new Map();
  for (const [tabId, clients] of names) {
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (!tab || grouped.has(tab.groupId)) continue;
    const title = `tabbridge: ${clients.join(', ')} ${clients.length > 1 ? 'are' : 'is'} working in this tab`;
    now.set(tabId, title);
    await setTabBadge(tabId, BADGE_TEXT, title);
  }
  for (const tabId of marked.keys()) {
    if (!now.has(tabId)) await setTabBadge(tabId, null, badgeFor(state).title); // null: back to the global text
  }
  marked.clear();
  for (const [tabId, title] of now) marked.set(tabId, title);
}

// Chrome drops a tab's own badge when the tab navigates: a marked tab gets it again.
function remark(tabId, change) {
  const title = marked.get(tabId);
  if (title !== undefined && 'status' in change) setTabBadge(tabId, BADGE_TEXT, title);
}

async function setTabBadge(tabId, text, title) {
  if (!chrome.action) return;
  await Promise.all([chrome.action.setBadgeText({ tabId, text }), chrome.action.setTitle({ tabId, title })])
    .catch((e) => console.debug(`tabbridge: tab ${tabId} badge: ${e.message}`)); // the tab went
}

// Must run synchronously at the service worker's top level.
export function registerTabGroups() {
  registerNotification(Notification.SESSION_ENDED, onSessionEnded);
  onDisconnected(onHostGone);
  onHostState((state) => serially(() => markTabs(state)).catch((e) => console.info(`tabbridge: badges: ${e.message}`)));
  chrome.tabs.onUpdated.addListener(remark);
  chrome.tabs.onRemoved.addListener((tabId) => marked.delete(tabId));
}
