// extension/worker/tab_state.js, without a browser: every per-tab map is
// dropped in one place when its tab goes (closed or replaced), and the hooks
// run after (saved copies) and before (carrying data over to the new tab).
// (The debugger letting a tab go needs a real attach: page_dialog_download
// and page_eval cover it.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromeEvents } from './chrome_events.mjs';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');

// The chrome.* events tab_state.js and cdp.js listen to, fired by hand.
const { event, fire } = chromeEvents();
globalThis.chrome = {
  debugger: { onEvent: event('debugger.onEvent'), onDetach: event('debugger.onDetach') },
  tabs: { onRemoved: event('tabs.onRemoved'), onReplaced: event('tabs.onReplaced') },
};

const state = await import(path.join(EXTENSION, 'worker/tab_state.js'));

describe('tab_state', () => {
  it('a closed tab leaves every map, then onForget hooks run with what was dropped', () => {
    state.consoleBuffers.set(1, ['a']);
    state.snapshotCache.set(1, { id: 1, lines: [] });
    state.openDialogs.set(1, { type: 'alert' });
    state.consoleBuffers.set(2, ['other tab']);
    const calls = [];
    state.onForget((tabId, dropped, why) => calls.push({ tabId, n: dropped.length, why, still: state.consoleBuffers.has(tabId) }));
    fire('tabs.onRemoved', 1);
    assert.equal(state.consoleBuffers.has(1), false);
    assert.equal(state.snapshotCache.has(1), false);
    assert.equal(state.openDialogs.has(1), false);
    assert.deepEqual(state.consoleBuffers.get(2), ['other tab']);
    assert.deepEqual(calls, [{ tabId: 1, n: 3, why: 'gone', still: false }]);
  });

  it('a replaced tab: the hooks carry data over first, then the old id is forgotten', () => {
    state.networkFailures.set(4, [{ url: 'old' }]);
    state.onTabReplaced((added, removed) => state.networkFailures.set(added, state.networkFailures.get(removed)));
    fire('tabs.onReplaced', 5, 4);
    assert.deepEqual(state.networkFailures.get(5), [{ url: 'old' }]);
    assert.equal(state.networkFailures.has(4), false);
  });
});
