// extension/worker/protocol.js: cut() and toolLabel(), how page text and the page's
// tool names are shortened in messages.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { OwnToolLimits, cut, toolLabel } from '../../extension/worker/protocol.js';

describe('cut', () => {
  it('leaves text within max alone', () => {
    assert.equal(cut('abc', 3), 'abc');
    assert.equal(cut('', 0), '');
  });

  it('cuts longer text to exactly max characters, the last one "…"', () => {
    assert.equal(cut('abcdef', 4), 'abc…');
    assert.equal(cut('abcdef', 4).length, 4);
    assert.equal(cut('ab', 1), '…');
  });
});

describe('toolLabel', () => {
  it('is one line: runs of whitespace become one space, ends trimmed', () => {
    assert.equal(toolLabel('  search \n\t flights  '), 'search flights');
  });

  it('is at most MAX_NAME_CHARS long', () => {
    const label = toolLabel('n'.repeat(OwnToolLimits.MAX_NAME_CHARS + 50));
    assert.equal(label.length, OwnToolLimits.MAX_NAME_CHARS);
    assert.ok(label.endsWith('…'));
    assert.equal(toolLabel('n'.repeat(OwnToolLimits.MAX_NAME_CHARS)), 'n'.repeat(OwnToolLimits.MAX_NAME_CHARS));
  });

  it('takes any value', () => {
    assert.equal(toolLabel(42), '42');
    assert.equal(toolLabel(undefined), 'undefined');
  });
});
