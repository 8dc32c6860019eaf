// extension/worker/tab_groups.js without a browser: a session's tabs go into
// one group made with the host's title and colour; a group the person closed
// is made again; a browser without tab groups, or a tab that cannot be
// grouped, is no failure; session.ended retitles the group and greys it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { TAB_EVENTS, chromeEvents } from './chrome_events.mjs';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');

const { event } = chromeEvents();
let nextGroup = 100;
const groups = new Map(); // group id -> {title, color, tabs}
const calls = [];
let refuse = null; // a message tabs.group throws with, once
globalThis.chrome = {
  runtime: { id: 'x', getManifest: () => ({ version: '0' }) },
  tabs: {
    ...Object.fromEntries(TAB_EVENTS.map((n) => [n, event(`tabs.${n}`)])),
    get: async (id) => ({ id, groupId: -1 }),
    group: async ({ groupId, tabIds }) => {
      calls.push(['group', groupId ?? null, tabIds]);
      if (refuse) throw new Error(takeRefusal());
      if (groupId !== undefined && !groups.has(groupId)) throw new Error(`No group with id: ${groupId}.`);
      const id = groupId ?? nextGroup++;
      if (!groups.has(id)) groups.set(id, { title: '', color: 'grey', tabs: [] });
      groups.get(id).tabs.push(...tabIds);
      return id;
    },
  },
  tabGroups: {
    update: async (id, props) => {
      calls.push(['update', id, props]);
      Object.assign(groups.get(id), props);
    },
  },
};
function takeRefusal() {
  const message = refuse;
  refuse = null;
  return message;
}

const { groupTab, onSessionEnded, readGroup } = await import(path.join(EXTENSION, 'worker/tab_groups.js'));

describe('tab_groups', () => {
  it('puts a session\'s tabs into one group with the host\'s title and colour', async () => {
    await groupTab(1, { key: 7, title: 'Claude Code', color: 'red' });
    await groupTab(2, { key: 7, title: 'Claude Code', color: 'red' });
    const [[id, group]] = [...groups];
    assert.deepEqual(group, { title: 'Claude Code', color: 'red', tabs: [1, 2] });
    await groupTab(3, { key: 8, title: 'Cursor', color: 'blue' });
    assert.equal(groups.size, 2, 'another session, another group');
    assert.notEqual([...groups.keys()][1], id);
  });

  it('makes the group again when the person closed it', async () => {
    groups.clear();
    await groupTab(4, { key: 7, title: 'Claude Code', color: 'red' });
    assert.deepEqual([...groups.values()].map((g) => [g.title, g.tabs]), [['Claude Code', [4]]]);
  });

  it('leaves a tab that cannot be grouped ungrouped, without failing', async () => {
    refuse = 'Tabs can only be moved to and from normal windows.';
    await groupTab(5, { key: 9, title: 'Codex', color: 'green' }); // resolves: open_tab goes on
    assert.ok(![...groups.values()].some((g) => g.tabs.includes(5)));
    const saved = globalThis.chrome.tabGroups;
    delete globalThis.chrome.tabGroups; // a browser without tab groups
    await groupTab(6, { key: 9, title: 'Codex', color: 'green' });
    globalThis.chrome.tabGroups = saved;
    assert.ok(![...groups.values()].some((g) => g.tabs.includes(6)));
  });

  it('reads a malformed group as none, and an unknown colour as blue', () => {
    assert.equal(readGroup({ title: 'x', color: 'red' }), null);
    assert.equal(readGroup(null), null);
    assert.deepEqual(readGroup({ key: 1, title: 'x', color: 'mauve' }), { key: 1, title: 'x', color: 'blue' });
  });

  it('retitles and greys the group of a session that ended, and groups no more of its tabs', async () => {
    const id = [...groups].find(([, g]) => g.title === 'Claude Code')[0];
    await onSessionEnded({ sessionId: 7, title: 'Claude Code — ended', color: 'grey' });
    assert.equal(groups.get(id).title, 'Claude Code — ended');
    assert.equal(groups.get(id).color, 'grey');
    const before = calls.length;
    await groupTab(10, { key: 7, title: 'Claude Code', color: 'red' }); // its open_tab was still running
    assert.equal(calls.length, before, 'a tab of an ended session joins nothing');
  });
});
