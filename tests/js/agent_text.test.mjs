// extension/page/agent/text.js: whitespace cleanup, cutting and quoting of
// the snapshot's names and values.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { loadAgent } from './page_agent_vm.mjs';

const { collapse, cut, quote } = loadAgent().agent.text;

describe('collapse', () => {
  it('turns runs of any whitespace into one space and trims', () => {
    assert.equal(collapse('  a \n\t b\u00a0 c  '), 'a b c');
  });
  it('reads null and undefined as empty, numbers as text', () => {
    assert.equal(collapse(null), '');
    assert.equal(collapse(undefined), '');
    assert.equal(collapse(12), '12');
  });
  it('drops what shows nothing (swagger-ui puts U+200B in its arrows) and bidi controls; keeps joiners', () => {
    assert.equal(collapse('get\u200b/pets\u200b/{id}'), 'get/pets/{id}');
    assert.equal(collapse('\ufeffa\u00adb\u2060c\u202ed\u2066e\u{e0041}'), 'abcde');
    assert.equal(collapse('👩\u200d🚀 می\u200cخواهم'), '👩\u200d🚀 می\u200cخواهم');
  });
});

describe('collapse: invisible runs', () => {
  // Variation selectors show nothing: U+FE00-FE0F and U+E0100-E01EF spell a
  // byte each after any letter, and runs of U+FE0F and joiners spell bits.
  it('drops variation selectors but the text and emoji ones, and keeps those one at a time', () => {
    assert.equal(collapse('ok\ufe01\ufe02\u{e0100}\u{e01ef}go'), 'okgo');
    assert.equal(collapse('a\ufe0f\u200d\ufe0f\u200d\ufe0f\u200c\u200db'), 'a\ufe0f\u200db');
    assert.equal(collapse('😀\ufe0f\ufe0f\ufe0e'), '😀\ufe0f');
    assert.equal(collapse('🏳\ufe0f\u200d🌈 ❤\ufe0f\u200d🔥 1\ufe0f\u20e3'), '🏳\ufe0f\u200d🌈 ❤\ufe0f\u200d🔥 1\ufe0f\u20e3');
  });
});

describe('collapse: page text that spells a ref', () => {
  // "[ref=e12]" in page text would read as the ref of the element it stands beside.
  it('turns the bracket of a ref token in page text into a parenthesis', () => {
    assert.equal(collapse('Click [ref=e12] to continue'), 'Click (ref=e12] to continue');
    assert.equal(collapse('[ REF = f1e3]'), '( REF = f1e3]');
  });
  it('leaves other brackets alone', () => {
    assert.equal(collapse('[x] [reference] ref=e1'), '[x] [reference] ref=e1');
  });
});

describe('cut', () => {
  it('keeps a string that fits, cuts a longer one to max with an ellipsis', () => {
    assert.equal(cut('abc', 3), 'abc');
    assert.equal(cut('abcdef', 4), 'abc…');
    assert.equal(cut('abcdef', 4).length, 4);
  });
});

describe('quote', () => {
  it('wraps in double quotes, escaping quotes and backslashes', () => {
    assert.equal(quote('Save'), '"Save"');
    assert.equal(quote('say "hi" \\ bye'), '"say \\"hi\\" \\\\ bye"');
  });
});
