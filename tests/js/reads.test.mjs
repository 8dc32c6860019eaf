// extension/tools/stack/reads.js: the per-tab ledger every page read goes
// into, and the stamp every answer's blocks get from it (issue 42 item 1).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { noteInjectionResults, noteRead, openLedger, openLedgers, readOf, stampResult, titleRead, withReads } from '../../extension/tools/stack/reads.js';
import { READ_META } from '../../extension/worker/protocol.js';

const A = 'http://127.0.0.1:8000/a';
const D = 'http://localhost:9000/secret';

describe('the ledger', () => {
  it('holds the reads on its tab while open, each once', () => {
    const ledger = openLedger(1);
    noteRead(1, { documentId: 'DOC1', url: A });
    noteRead(1, { documentId: 'DOC1', url: A });
    noteRead(2, { documentId: 'DOC2', url: D }); // another tab
    assert.deepEqual(ledger.reads(), [{ documentId: 'DOC1', url: A }]);
    ledger.close();
    assert.equal(openLedgers(1), 0);
  });

  it('a read after close goes nowhere', () => {
    const ledger = openLedger(3);
    ledger.close();
    noteRead(3, { documentId: 'DOC', url: A });
    assert.deepEqual(ledger.reads(), []);
  });

  it('a read on a tab goes into every ledger open on it (concurrent calls only get stricter)', () => {
    const first = openLedger(4);
    const second = openLedger(4);
    noteRead(4, { documentId: 'DOC-D', url: D });
    assert.deepEqual(first.reads(), [{ documentId: 'DOC-D', url: D }]);
    assert.deepEqual(second.reads(), [{ documentId: 'DOC-D', url: D }]);
    first.close();
    noteRead(4, { documentId: 'DOC-A', url: A });
    assert.deepEqual(first.reads().map((r) => r.url), [D]);
    assert.deepEqual(second.reads().map((r) => r.url), [D, A]);
    second.close();
  });

  it('a read without a URL is noted with an empty one (the host withholds it), never dropped', () => {
    assert.deepEqual(readOf(undefined, undefined), { documentId: null, url: '' });
    const ledger = openLedger(5);
    noteRead(5, { documentId: 'DOC', url: null });
    assert.deepEqual(ledger.reads(), [{ documentId: 'DOC', url: '' }]);
    ledger.close();
  });

  it('script results are noted with the URL their own script answered; a frame that answered nothing read nothing', () => {
    const ledger = openLedger(6);
    noteInjectionResults(6, [
      { frameId: 0, documentId: 'TOP', result: { read: A, value: 1 } },
      { frameId: 3, documentId: 'SUB', result: undefined },
    ], (r) => r.read);
    assert.deepEqual(ledger.reads(), [{ documentId: 'TOP', url: A }]);
    ledger.close();
  });

  it('a title is noted with the URL of the same Tab object', () => {
    const ledger = openLedger(7);
    assert.equal(titleRead(7, { url: D, title: 'Inbox' }), 'Inbox');
    assert.deepEqual(ledger.reads(), [{ documentId: null, url: D }]);
    ledger.close();
  });
});

describe('stampResult', () => {
  const reads = [{ documentId: 'DOC1', url: A }];

  it('marks every block and the result with the ledger', () => {
    const stamped = stampResult({ content: [{ type: 'text', text: 'x' }, { type: 'image', data: 'AA' }], structuredContent: { a: 1 } }, reads);
    for (const block of stamped.content) assert.deepEqual(block._meta[READ_META], reads);
    assert.deepEqual(stamped._meta[READ_META], reads);
    assert.deepEqual(stamped.structuredContent, { a: 1 });
  });

  it('keeps a mark a tool set itself, and other _meta keys', () => {
    const own = withReads({ type: 'text', text: 'our words' }, []);
    const stamped = stampResult({ content: [own], _meta: { 'tabbridge/navigatedTo': A } }, reads);
    assert.deepEqual(stamped.content[0]._meta[READ_META], []);
    assert.deepEqual(stamped._meta, { 'tabbridge/navigatedTo': A, [READ_META]: reads });
  });

  it('an answer of a call that read nothing is marked as no page text', () => {
    const stamped = stampResult({ content: [{ type: 'text', text: 'scrolled' }] }, []);
    assert.deepEqual(stamped.content[0]._meta[READ_META], []);
  });

  it('keeps a symbol-keyed flag of the tool (own_tools.js NOTHING)', () => {
    const flag = Symbol('flag');
    assert.equal(stampResult({ content: [], [flag]: true }, reads)[flag], true);
  });
});
