// extension/worker/read_format.js: the read tools' cursors (opaque base64url JSON)
// and text formatting.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { byteSize, clock, decodeCursor, encodeCursor, truncate } from '../../extension/worker/read_format.js';

describe('cursors', () => {
  it('round-trip an object, non-ASCII included', () => {
    const obj = { offset: 20000, url: 'https://例え.jp/a?b=c+d', k: ['é', '/', '+'] };
    assert.deepEqual(decodeCursor(encodeCursor(obj)), obj);
  });

  it('are base64url without padding', () => {
    for (let n = 0; n < 8; n++) {
      const c = encodeCursor({ s: '?'.repeat(n) + '>>>' });
      assert.match(c, /^[A-Za-z0-9_-]+$/);
    }
  });

  it('decode to null when not a cursor of ours', () => {
    assert.equal(decodeCursor('!!!'), null);
    assert.equal(decodeCursor(''), null);
    assert.equal(decodeCursor(encodeCursor(3)), null); // JSON, but not an object
    assert.equal(decodeCursor(encodeCursor(null)), null);
    assert.equal(decodeCursor(Buffer.from('not json').toString('base64url')), null);
  });
});

describe('byteSize', () => {
  it('reads as bytes, KB or MB, and says when it is unknown', () => {
    assert.deepEqual([0, 1023, 1024, 1536, 5 * 1024 * 1024, null].map(byteSize), ['0 B', '1023 B', '1.0 KB', '1.5 KB', '5.0 MB', '? B']);
  });
});

describe('truncate', () => {
  it('leaves short text alone', () => {
    assert.equal(truncate('abc', 3), 'abc');
  });

  it('says how much it cut', () => {
    assert.equal(truncate('abcdef', 3), 'abc… [3 more chars]');
  });

  it('takes null and non-strings', () => {
    assert.equal(truncate(null, 3), '');
    assert.equal(truncate(undefined, 3), '');
    assert.equal(truncate(123456, 2), '12… [4 more chars]');
  });
});

describe('clock', () => {
  it('is the local time HH:MM:SS.mmm, zero-padded', () => {
    assert.equal(clock(new Date(2020, 0, 1, 3, 4, 5, 6).getTime()), '03:04:05.006');
    assert.equal(clock(new Date(2020, 0, 1, 23, 59, 59, 999).getTime()), '23:59:59.999');
  });
});
