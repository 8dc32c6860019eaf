// extension/worker/session_store.js: newestWithin(), which entries of a tab's history
// are kept across a service-worker restart when they do not all fit.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { newestWithin } from '../../extension/worker/session_store.js';

describe('newestWithin', () => {
  const size = (items) => items.reduce((n, x) => n + JSON.stringify(x).length + 1, 0);

  it('is null for an empty or missing list', () => {
    assert.equal(newestWithin([], 100), null);
    assert.equal(newestWithin(undefined, 100), null);
  });

  it('keeps the whole list when it fits', () => {
    const list = [{ a: 1 }, { b: 2 }];
    assert.deepEqual(newestWithin(list, size(list)), list);
  });

  it('keeps the newest entries that fit, oldest first', () => {
    const list = ['aaaa', 'bb', 'cc', 'dd']; // 7, 5, 5, 5 bytes
    assert.deepEqual(newestWithin(list, 10), ['cc', 'dd']);
    assert.deepEqual(newestWithin(list, 14), ['cc', 'dd']);
    assert.deepEqual(newestWithin(list, 15), ['bb', 'cc', 'dd']);
  });

  it('is null when not even the newest fits', () => {
    assert.equal(newestWithin(['a long entry'], 3), null);
  });
});
