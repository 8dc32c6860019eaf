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
