// extension/tools/shared/secrets.js: passwords the agent typed are masked in the text of a
// result, in every spelling a page may echo them (as typed, URL-encoded, form-
// encoded, inside JSON), and nowhere else.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { MASK, maskSecrets } from '../../extension/tools/shared/secrets.js';

const result = (...texts) => ({ content: texts.map((text) => ({ type: 'text', text })), _meta: { url: 'https://a.test/?p=hunter 2' } });

describe('maskSecrets', () => {
  it('masks a secret as typed, URL-encoded, form-encoded and JSON-escaped', () => {
    const secret = 'p@ss "word" 2&';
    const r = result(
      `typed ${secret}`,
      `url ${encodeURIComponent(secret)}`,
      `form ${new URLSearchParams({ v: secret }).toString().slice(2)}`,
      `json ${JSON.stringify({ v: secret })}`,
    );
    maskSecrets(r, new Set([secret]));
    assert.deepEqual(r.content.map((b) => b.text), [`typed ${MASK}`, `url ${MASK}`, `form ${MASK}`, `json {"v":"${MASK}"}`]);
  });

  it('masks every occurrence of every secret; longer forms first', () => {
    const r = result('ab abc abc ab');
    maskSecrets(r, new Set(['ab', 'abc']));
    assert.equal(r.content[0].text, `${MASK} ${MASK} ${MASK} ${MASK}`);
  });

  it('leaves other blocks and _meta alone', () => {
    const r = result('hunter 2');
    r.content.push({ type: 'image', data: 'aHVudGVyIDI=', mimeType: 'image/png' });
    maskSecrets(r, new Set(['hunter 2']));
    assert.equal(r.content[0].text, MASK);
    assert.equal(r.content[1].data, 'aHVudGVyIDI=');
    assert.equal(r._meta.url, 'https://a.test/?p=hunter 2');
  });

  it('returns the result itself; no secrets or no content is a no-op', () => {
    const r = result('text');
    assert.equal(maskSecrets(r, new Set(['zz'])), r);
    assert.equal(maskSecrets(r, new Set()), r);
    assert.equal(maskSecrets(r, undefined), r);
    assert.equal(r.content[0].text, 'text');
    const empty = { isError: true };
    assert.equal(maskSecrets(empty, new Set(['x'])), empty);
    assert.equal(maskSecrets(null, new Set(['x'])), null);
  });

  it('ignores an empty secret', () => {
    const r = result('abc');
    maskSecrets(r, new Set(['']));
    assert.equal(r.content[0].text, 'abc');
  });

  it('masks the values of secret fields in a URL\'s query by their names, whatever the value', () => {
    const r = result('navigated to http://a.test/paid?payee=Bob&pin=42&one+time=9%209#x and /p?xpin=1&pin=7');
    maskSecrets(r, new Set(), new Set(['pin', 'one time']));
    assert.equal(r.content[0].text, `navigated to http://a.test/paid?payee=Bob&pin=${MASK}&one+time=${MASK}#x and /p?xpin=1&pin=${MASK}`);
  });

  it('a field name with regex characters is taken literally', () => {
    const r = result('/p?a.b=1&axb=2&c[d]=3');
    maskSecrets(r, undefined, new Set(['a.b', 'c[d]']));
    assert.equal(r.content[0].text, `/p?a.b=${MASK}&axb=2&c[d]=${MASK}`);
  });
});
