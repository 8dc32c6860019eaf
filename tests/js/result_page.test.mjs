// A declarative form whose submit navigates answers what its result page says
// (extension/tools/own/result_page.js): with stand-ins for the few chrome.*
// calls it makes — the tab's top document, which a test replaces, and the
// navigation events, fired by hand — read() answers the new document's
// JSON-LD or text once it has loaded; it ends at its deadline (`until`, or the
// call's signal aborting with a TimeoutError), at a cancellation, when the
// navigation failed, and when none started; resultPageBlocks() words it. The
// URL it answers with the text is the one of the document read, never where
// the tab says it is going (issue 42 R1: a slow redirect to a denied site);
// landedPageBlocks() words a press's landing page, and withNavigatedTo()
// hands the host every URL to decide.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { chromeEvents } from './chrome_events.mjs';

const { event, fire } = chromeEvents();
const TAB = 7;
// The tab's top document as executeScript finds it: {documentId, url?, result}
// (url: the document's own, location.href; the tab's by default), or null while none answers.
let top = null;
let url = 'http://127.0.0.1:8000/bistro.html';
globalThis.chrome = {
  webNavigation: Object.fromEntries(['onBeforeNavigate', 'onCommitted', 'onDOMContentLoaded', 'onCompleted', 'onErrorOccurred']
    .map((n) => [n, event(n)])),
  scripting: {
    executeScript: async ({ target }) => {
      assert.deepEqual(target, { tabId: TAB, frameIds: [0] });
      if (!top) throw new Error('Frame with ID 0 was removed.');
      return [{ frameId: 0, documentId: top.documentId, result: { url: top.url ?? url, ...top.result } }];
    },
  },
  tabs: { get: async () => ({ id: TAB, url }) },
};

const { MAIN_MAX_CHARS, landedPageBlocks, watchResultPage, resultPageBlocks } = await import('../../extension/tools/own/result_page.js');
const { withNavigatedTo } = await import('../../extension/tools/shared/navigated_to.js');
const { openLedger } = await import('../../extension/tools/stack/reads.js');

const OLD = 'doc-old';
const nav = (name, extra = {}) => fire(name, { tabId: TAB, frameId: 0, ...extra });
const inMs = (ms) => Date.now() + ms;

describe('result_page.js: the result page of a declarative form', () => {
  it('answers the new document\'s JSON-LD once it has loaded, woken by the navigation events', async () => {
    top = { documentId: OLD, result: { ready: 'complete', text: 'the form' } };
    const w = watchResultPage(TAB, OLD);
    try {
      const reading = w.read({ until: inMs(20_000), startWithinMs: 10_000 });
      nav('onBeforeNavigate');
      top = { documentId: 'doc-new', result: { ready: 'loading' } };
      url = 'http://127.0.0.1:8000/bistro-result.html?name=Ada';
      nav('onCommitted');
      top = { documentId: 'doc-new', result: { ready: 'complete', jsonLd: '{ "@type": "Message",\n "text": "booked" }' } };
      nav('onCompleted');
      assert.deepEqual(await reading, { url, jsonLd: '{ "@type": "Message",\n "text": "booked" }' });
    } finally {
      w.dispose();
    }
  });

  it('a navigation that started before read() was asked counts (the watch began before the call)', async () => {
    top = { documentId: OLD, result: { ready: 'complete', text: '' } };
    const w = watchResultPage(TAB, OLD);
    try {
      nav('onBeforeNavigate');
      top = null; // between documents: nothing answers
      const reading = w.read({ until: inMs(20_000), startWithinMs: 0 });
      top = { documentId: 'doc-new', result: { ready: 'complete', text: 'Reservation received' } };
      nav('onCompleted');
      assert.deepEqual(await reading, { url, text: 'Reservation received' });
    } finally {
      w.dispose();
    }
  });

  it('no navigation within startWithinMs: noNavigation (the page handled the form itself)', async () => {
    top = { documentId: OLD, result: { ready: 'complete', text: 'the form' } };
    const w = watchResultPage(TAB, OLD);
    try {
      assert.deepEqual(await w.read({ until: inMs(20_000), startWithinMs: 30 }), { noNavigation: true, why: 'timer' });
    } finally {
      w.dispose();
    }
  });

  // Issue 43: the wait ends when the page is known to have kept the submit.
  it('a submit the page prevented ends the wait at once, not at startWithinMs', async () => {
    top = { documentId: OLD, result: { ready: 'complete', text: 'the form' } };
    const w = watchResultPage(TAB, OLD);
    let asked = 0;
    try {
      const r = await w.read({ until: inMs(20_000), startWithinMs: 10_000, prevented: async () => (++asked, true) });
      assert.deepEqual(r, { noNavigation: true, why: 'prevented' });
      assert.ok(asked >= 2, 'asked again a moment later: a handler may send the form by script');
    } finally {
      w.dispose();
    }
  });

  it('a prevented submit whose handler starts a navigation waits for the result page', async () => {
    top = { documentId: OLD, result: { ready: 'complete', text: 'the form' } };
    const w = watchResultPage(TAB, OLD);
    try {
      let asked = 0;
      const reading = w.read({
        until: inMs(20_000), startWithinMs: 10_000,
        prevented: async () => {
          if (++asked === 1) {
            // The handler's form.submit(): its navigation starts before the second look.
            nav('onBeforeNavigate');
            top = { documentId: 'doc-new', result: { ready: 'complete', text: 'Booked' } };
            nav('onCompleted');
          }
          return true;
        },
      });
      assert.deepEqual(await reading, { url, text: 'Booked' });
    } finally {
      w.dispose();
    }
  });

  it('a submit not yet seen, or let go, keeps waiting for a navigation until startWithinMs', async () => {
    top = { documentId: OLD, result: { ready: 'complete', text: 'the form' } };
    const w = watchResultPage(TAB, OLD);
    try {
      for (const answer of [null, false]) {
        assert.deepEqual(await w.read({ until: inMs(20_000), startWithinMs: 60, prevented: async () => answer }),
          { noNavigation: true, why: 'timer' });
      }
    } finally {
      w.dispose();
    }
  });

  it('a result page still loading at the deadline: timedOut, with where the tab is', async () => {
    top = { documentId: 'doc-new', result: { ready: 'loading' } };
    const w = watchResultPage(TAB, OLD);
    try {
      assert.deepEqual(await w.read({ until: inMs(40) }), { url, timedOut: true });
    } finally {
      w.dispose();
    }
  });

  it('the call\'s signal: its deadline (TimeoutError) is timedOut, a cancellation is cancelled — both end the wait', async () => {
    top = { documentId: 'doc-new', result: { ready: 'loading' } };
    for (const [reason, want] of [[new DOMException('deadline', 'TimeoutError'), { url, timedOut: true }], ['the client cancelled', { cancelled: true }]]) {
      const w = watchResultPage(TAB, OLD);
      try {
        const abort = new AbortController();
        const reading = w.read({ until: Infinity, signal: abort.signal });
        abort.abort(reason);
        assert.deepEqual(await reading, want);
      } finally {
        w.dispose();
      }
    }
  });

  it('a parsed page whose load never comes is read at the deadline, as it is', async () => {
    top = { documentId: 'doc-new', result: { ready: 'interactive', text: 'Reservation received' } };
    const w = watchResultPage(TAB, OLD);
    try {
      assert.deepEqual(await w.read({ until: inMs(40) }), { url, text: 'Reservation received' });
    } finally {
      w.dispose();
    }
  });

  it('a navigation that failed (the old document stays): failed, with the error', async () => {
    top = { documentId: OLD, result: { ready: 'complete', text: 'the form' } };
    const w = watchResultPage(TAB, OLD);
    try {
      const reading = w.read({ until: inMs(20_000), startWithinMs: 10_000 });
      nav('onBeforeNavigate');
      nav('onErrorOccurred', { error: 'net::ERR_CONNECTION_REFUSED' });
      assert.deepEqual(await reading, { url, failed: 'net::ERR_CONNECTION_REFUSED' });
    } finally {
      w.dispose();
    }
  });

  it('resultPageBlocks: where the tab went without the query, then the JSON-LD as compact JSON, or the text', () => {
    const at = 'http://127.0.0.1:8000/bistro-result.html?name=Ada&password=x';
    assert.deepEqual(resultPageBlocks('reserve_table', { url: at, jsonLd: '{\n  "text": "booked"\n}' }), [
      { type: 'text', text: 'reserve_table: the form was submitted and the tab went to http://127.0.0.1:8000/bistro-result.html; the result page answers (its JSON-LD):' },
      { type: 'text', text: '{"text":"booked"}' },
    ]);
    assert.equal(resultPageBlocks('t', { url: at, jsonLd: 'not json ' })[1].text, 'not json');
    assert.deepEqual(resultPageBlocks('t', { url: at, text: 'Booked\n\n\n\nthanks  \n' }).map((b) => b.text), [
      't: the form was submitted and the tab went to http://127.0.0.1:8000/bistro-result.html; the result page has no JSON-LD — its text:',
      'Booked\n\nthanks',
    ]);
    assert.match(resultPageBlocks('t', { url: at, timedOut: true })[0].text, /did not finish loading in time/);
    assert.match(resultPageBlocks('t', { url: at, failed: 'net::ERR_ABORTED' })[0].text, /failed \(net::ERR_ABORTED\)/);
  });

  it('the text comes with the URL of the document it was read from, not where the tab was going (R1: a slow redirect to a denied site)', async () => {
    top = { documentId: OLD, result: { ready: 'complete', text: 'the form' } };
    url = 'http://127.0.0.1:8000/slow-post'; // the tab, still going where the press sent it
    const w = watchResultPage(TAB, OLD);
    try {
      const reading = w.read({ until: inMs(20_000) });
      nav('onBeforeNavigate');
      top = { documentId: 'doc-denied', url: 'http://localhost:9000/secret', result: { ready: 'complete', text: 'the denied site\'s words' } };
      nav('onCompleted');
      const page = await reading;
      assert.deepEqual(page, { url: 'http://localhost:9000/secret', text: 'the denied site\'s words' });
      // The answer names both to the host: where the press sent the tab, and the document read.
      const r = withNavigatedTo({ content: [] }, ['http://127.0.0.1:8000/slow-post', page.url]);
      assert.deepEqual(r._meta['tabbridge/navigatedTo'], ['http://127.0.0.1:8000/slow-post', 'http://localhost:9000/secret']);
    } finally {
      w.dispose();
    }
  });

  it('the read goes into the call\'s ledger with the document and URL its script read (stack/reads.js)', async () => {
    top = { documentId: OLD, result: { ready: 'complete', text: 'the form' } };
    const ledger = openLedger(TAB);
    const w = watchResultPage(TAB, OLD);
    try {
      const reading = w.read({ until: inMs(20_000) });
      nav('onBeforeNavigate');
      top = { documentId: 'doc-denied', url: 'http://localhost:9000/secret', result: { ready: 'complete', text: 'the denied site\'s words' } };
      nav('onCompleted');
      await reading;
      assert.deepEqual(ledger.reads(), [{ documentId: 'doc-denied', url: 'http://localhost:9000/secret' }]);
    } finally {
      w.dispose();
      ledger.close();
    }
  });

  it('a document that names no URL of its own is not answered (the host could not judge its text)', async () => {
    top = { documentId: 'doc-new', url: '', result: { ready: 'complete', text: 'words of nowhere' } };
    const w = watchResultPage(TAB, OLD);
    try {
      const page = await w.read({ until: inMs(20_000) });
      assert.equal(page.timedOut, true);
      assert.equal(page.text, undefined);
    } finally {
      w.dispose();
    }
  });

  it('withNavigatedTo: one URL as a string, several as a list without repeats, none without the key', () => {
    assert.deepEqual(withNavigatedTo({ content: [] }, 'http://a/'), { content: [], _meta: { 'tabbridge/navigatedTo': 'http://a/' } });
    assert.deepEqual(withNavigatedTo({ content: [] }, ['http://a/', null, 'http://a/']), { content: [], _meta: { 'tabbridge/navigatedTo': 'http://a/' } });
    assert.deepEqual(withNavigatedTo({ content: [] }, [null, undefined]), { content: [] });
  });

  it('landedPageBlocks: where the tab went without the query, then the main content, cut at MAIN_MAX_CHARS; nothing when none was read', () => {
    const at = 'http://127.0.0.1:8000/search?q=secret';
    assert.deepEqual(landedPageBlocks({ url: at, text: 'Results\n\n\n\n3 found  \n' }), [
      { type: 'text', text: 'the tab went to http://127.0.0.1:8000/search — its main content:' },
      { type: 'text', text: 'Results\n\n3 found' },
    ]);
    const long = landedPageBlocks({ url: at, text: 'y'.repeat(MAIN_MAX_CHARS * 3) })[1].text;
    assert.ok(long.length <= MAIN_MAX_CHARS, `${long.length} characters`);
    assert.match(long, /… \(cut at \d+ characters: read_page reads the rest\)$/);
    // Read one past the cap (the page had more), even when its last character was only a line's end.
    const read = landedPageBlocks({ url: at, text: `${'z\n'.repeat(MAIN_MAX_CHARS / 2)}z` })[1].text;
    assert.match(read, /read_page reads the rest\)$/);
    assert.equal(landedPageBlocks({ url: at, text: '' })[1].text, '(the page shows no text)');
    for (const none of [null, { url: at, timedOut: true }, { url: at, failed: 'net::ERR_ABORTED' }, { cancelled: true }]) {
      assert.deepEqual(landedPageBlocks(none), []);
    }
  });
});
