// extension/worker/tab_cache.js, without a browser: the tabs as their events
// last reported them; an event that changes a tab without tabs.onUpdated
// drops what is known of its window; a chrome.tabs.get answer overtaken by an
// event is not kept.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { TAB_EVENTS, chromeEvents } from './chrome_events.mjs';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');

const { event, fire } = chromeEvents();
let answer = null; // what chrome.tabs.get resolves to next: {tab} or {wait: Promise, tab}
globalThis.chrome = {
  debugger: { onEvent: event('debugger.onEvent'), onDetach: event('debugger.onDetach') },
  tabs: {
    ...Object.fromEntries(TAB_EVENTS.map((n) => [n, event(`tabs.${n}`)])),
    get: async () => {
      const { wait, tab } = answer;
      await wait;
      if (!tab) throw new Error('No tab with id');
      return tab;
    },
  },
};

const { freshTab, knownTab, registerTabCache } = await import(path.join(EXTENSION, 'worker/tab_cache.js'));
await import(path.join(EXTENSION, 'worker/tab_state.js'));
registerTabCache();

const tab = (id, url, windowId = 1) => ({ id, url, windowId, status: 'complete' });

describe('tab_cache', () => {
  it('knows a tab from tabs.onCreated and tabs.onUpdated, and forgets it when it goes', () => {
    fire('tabs.onCreated', tab(1, 'http://a.test/'));
    assert.equal(knownTab(1).url, 'http://a.test/');
    fire('tabs.onUpdated', 1, { url: 'http://b.test/' }, tab(1, 'http://b.test/'));
    assert.equal(knownTab(1).url, 'http://b.test/');
    fire('tabs.onRemoved', 1, {});
    assert.equal(knownTab(1), null);
  });

  it('an activation drops what is known of the tabs of its window only', () => {
    fire('tabs.onCreated', tab(2, 'http://a.test/', 1));
    fire('tabs.onCreated', tab(3, 'http://a.test/', 2));
    fire('tabs.onActivated', { tabId: 2, windowId: 1 });
    assert.equal(knownTab(2), null, 'tab.active changed without onUpdated');
    assert.equal(knownTab(3).url, 'http://a.test/');
  });

  it('keeps what chrome.tabs.get answered', async () => {
    answer = { tab: tab(4, 'http://a.test/') };
    assert.equal((await freshTab(4)).url, 'http://a.test/');
    assert.equal(knownTab(4).url, 'http://a.test/');
    answer = { tab: null };
    assert.equal(await freshTab(99), null, 'a gone tab');
  });

  it('does not keep a chrome.tabs.get answer an event overtook', async () => {
    let release;
    answer = { wait: new Promise((r) => { release = r; }), tab: tab(5, 'http://old.test/') };
    const looking = freshTab(5);
    fire('tabs.onUpdated', 5, { url: 'http://new.test/' }, tab(5, 'http://new.test/'));
    release();
    assert.equal((await looking).url, 'http://old.test/', 'the caller gets what it asked for');
    assert.equal(knownTab(5).url, 'http://new.test/', 'the newer event stays');
  });
});
