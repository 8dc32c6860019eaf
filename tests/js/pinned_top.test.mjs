// The pin of a read to the document its site check passed for
// (tools/stack/pinned_top.js): a commit of another document during the call
// drops the answer; the commit of the pinned document itself, heard late (the
// worker gets webNavigation events well after the page loaded), does not.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

const listeners = { onBeforeNavigate: [], onCommitted: [], onErrorOccurred: [] };
let frame = { url: 'https://a.test/page', documentId: 'DOC-A' };

describe('pinTop', () => {
  let pinTop;
  before(async () => {
    const event = (name) => ({ addListener: (fn) => listeners[name].push(fn) });
    globalThis.chrome = {
      webNavigation: {
        onBeforeNavigate: event('onBeforeNavigate'),
        onCommitted: event('onCommitted'),
        onErrorOccurred: event('onErrorOccurred'),
        getFrame: async () => ({ ...frame }),
      },
      tabs: { get: async () => ({ url: frame.url }) },
      runtime: {},
    };
    ({ pinTop } = await import('../../extension/tools/stack/pinned_top.js'));
  });
  const commit = (url, documentId) => {
    for (const fn of listeners.onCommitted) fn({ tabId: 7, frameId: 0, url, documentId, documentLifecycle: 'active' });
  };

  it('a late commit event of the pinned document is no move', async () => {
    frame = { url: 'https://a.test/page', documentId: 'DOC-A' };
    const pin = pinTop(7, 'https://a.test/');
    await pin.check();
    commit('https://a.test/page', 'DOC-A');
    await pin.assertSame();
    pin.dispose();
  });

  it('a commit of another document is a move, even when the tab comes back to the pinned one', async () => {
    frame = { url: 'https://a.test/page', documentId: 'DOC-A' };
    const pin = pinTop(7, 'https://a.test/');
    await pin.check();
    commit('https://denied.test/', 'DOC-D');
    commit('https://a.test/page', 'DOC-A'); // back/forward cache: the same id again
    await assert.rejects(pin.assertSame(), /changed during the call/);
    pin.dispose();
  });

  it('a commit without a document id counts as another document', async () => {
    frame = { url: 'https://a.test/page', documentId: 'DOC-A' };
    const pin = pinTop(7, 'https://a.test/');
    await pin.check();
    commit('https://a.test/page', undefined);
    await assert.rejects(pin.assertSame(), /changed during the call/);
    pin.dispose();
  });
});
