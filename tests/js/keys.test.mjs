// extension/tools/shared/keys.js: what press_key and type {keyEvents} send for a key name
// or a chord the model writes.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { keyDef, parseChordOn } from '../../extension/tools/shared/keys.js';

describe('keyDef', () => {
  it('letters carry their code, key code and text; an upper-case one is shifted', () => {
    assert.deepEqual(keyDef('a'), { key: 'a', code: 'KeyA', keyCode: 65, text: 'a', shift: false });
    assert.deepEqual(keyDef('A'), { key: 'A', code: 'KeyA', keyCode: 65, text: 'A', shift: true });
  });

  it('named keys, digits, punctuation and shifted punctuation', () => {
    assert.deepEqual(keyDef('Enter'), { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    assert.equal(keyDef('7').code, 'Digit7');
    assert.equal(keyDef(';').code, 'Semicolon');
    assert.deepEqual(keyDef('!'), { key: '!', code: 'Digit1', keyCode: 49, text: '!', shift: true });
    assert.equal(keyDef('F5').keyCode, 116);
  });

  it('any other single character is text without a code; a longer unknown name is none', () => {
    assert.deepEqual(keyDef('é'), { key: 'é', code: '', keyCode: 0, text: 'é' });
    assert.equal(keyDef('Hyper'), null);
  });
});

describe('parseChordOn', () => {
  it('reads aliases and modifiers in any case', () => {
    const { mods, def } = parseChordOn('ctrl+shift+a', false);
    assert.deepEqual(mods, ['Control', 'Shift']);
    assert.equal(def.code, 'KeyA');
    assert.equal(parseChordOn('PgDn', false).def.key, 'PageDown');
    assert.equal(parseChordOn('f5', false).def.key, 'F5');
  });

  it('ControlOrMeta is Meta on a Mac and Control elsewhere', () => {
    assert.deepEqual(parseChordOn('ControlOrMeta+c', true).mods, ['Meta']);
    assert.deepEqual(parseChordOn('ControlOrMeta+c', false).mods, ['Control']);
  });

  it('"+" and "Control++" name the plus key', () => {
    assert.equal(parseChordOn('+', false).def.key, '+');
    const plus = parseChordOn('Control++', false);
    assert.deepEqual(plus.mods, ['Control']);
    assert.equal(plus.def.key, '+');
  });

  it('says what is wrong: empty, a non-modifier before "+", an unknown key', () => {
    assert.match(parseChordOn('', false).error, /key is empty/);
    assert.match(parseChordOn('a+b', false).error, /"a" in "a\+b" is not a modifier/);
    assert.match(parseChordOn('Control+Hyper', false).error, /unknown key "Hyper"/);
  });
});
