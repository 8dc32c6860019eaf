// extension/worker/chunk_assembler.js: host -> extension `chunk` notifications put
// back together; anything out of order or malformed drops the partial message.

import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { ChunkAssembler } from '../../extension/worker/chunk_assembler.js';

describe('ChunkAssembler', () => {
  let logged;
  let info;
  beforeEach(() => {
    logged = [];
    info = console.info;
    console.info = (m) => logged.push(m);
  });
  afterEach(() => {
    console.info = info;
  });

  const chunk = (id, index, count, data) => ({ id, index, count, data });

  it('returns the message once its last chunk is in', () => {
    const a = new ChunkAssembler();
    assert.equal(a.push(chunk(1, 0, 3, '{"a"')), null);
    assert.equal(a.push(chunk(1, 1, 3, ':')), null);
    assert.equal(a.push(chunk(1, 2, 3, '1}')), '{"a":1}');
    assert.equal(a.push(chunk(2, 0, 1, 'one')), 'one');
    assert.deepEqual(logged, []);
  });

  it('drops the partial message on a chunk out of order, of another id or count', () => {
    for (const bad of [chunk(1, 2, 3, 'x'), chunk(9, 1, 3, 'x'), chunk(1, 1, 4, 'x')]) {
      const a = new ChunkAssembler();
      a.push(chunk(1, 0, 3, 'a'));
      assert.equal(a.push(bad), null);
      assert.equal(a.push(chunk(1, 1, 3, 'b')), null, 'the partial message is gone');
      assert.match(logged.at(-2), /out of order; dropped partial message 1/);
    }
  });

  it('starts again at an index-0 chunk', () => {
    const a = new ChunkAssembler();
    a.push(chunk(1, 0, 2, 'old'));
    assert.equal(a.push(chunk(2, 0, 2, 'new ')), null);
    assert.match(logged[0], /chunked message 2 began early; dropped partial message 1/);
    assert.equal(a.push(chunk(2, 1, 2, 'one')), 'new one');
  });

  it('refuses malformed chunks', () => {
    const a = new ChunkAssembler();
    for (const bad of [null, {}, chunk(1, -1, 2, 'x'), chunk(1, 2, 2, 'x'), chunk(1, 0, 2, 5), chunk(1, 0.5, 2, 'x'), chunk(1, 0, '2', 'x')]) {
      assert.equal(a.push(bad), null);
    }
    assert.ok(logged.every((m) => /malformed chunk/.test(m)));
    assert.equal(a.push(chunk(1, 1, 2, 'x')), null, 'no partial message survived');
  });
});
