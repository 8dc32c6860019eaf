// extension/tools/shared/redact.js: what the network tools show has its
// credentials masked, and page text stays inside its fence.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { fenced, isSecretName, maskJwts, redactBody, redactHeaders, redactUrl, secretValues } from '../../extension/tools/shared/redact.js';
import { MASK } from '../../extension/tools/shared/secrets.js';

describe('redact', () => {
  it('knows the names credentials go by, and leaves ordinary ones', () => {
    for (const name of ['Authorization', 'proxy-authorization', 'X-API-Key', 'x-auth-token', 'X-CSRF-Token', 'X-Amz-Security-Token',
      'api_key', 'access_token', 'password', 'passwd', 'client_secret', 'X-Amz-Signature', 'code', 'key', 'sessionId']) {
      assert.ok(isSecretName(name), name);
    }
    for (const name of ['content-type', 'accept', 'title', 'q', 'page', 'user-agent', 'design', 'keyboard']) assert.ok(!isSecretName(name), name);
  });

  // Issue 29 (low): pw, jwt, camelCase ...Key, pin, cvc/cvv went out as they were.
  it('knows the short and camelCase names too, as whole words', () => {
    for (const name of ['pw', 'user_pw', 'userPw', 'PW', 'jwt', 'id_jwt', 'X-JWT-Assertion', 'jwtToken', 'privateKey', 'apiKey', 'signingKey',
      'x-encryption-key', 'pin', 'PIN', 'pinCode', 'card_pin', 'cvc', 'cvv', 'card-cvc2', 'cardCvv', 'csc']) {
      assert.ok(isSecretName(name), name);
    }
    for (const name of ['keyboard', 'keyId', 'ping', 'pinned', 'spinner', 'pwa', 'monkey', 'turnkey', 'opinion']) assert.ok(!isSecretName(name), name);
  });

  const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
  it('masks a JWT-shaped value wherever it shows', () => {
    assert.equal(maskJwts(`see ${JWT} and eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0. too`), `see ${MASK} and ${MASK} too`);
    assert.equal(maskJwts('eyJ alone, a.b.c and xeyJhbGciOi.eyJz.abc stay'), 'eyJ alone, a.b.c and xeyJhbGciOi.eyJz.abc stay');
    assert.equal(redactUrl(`https://a.test/verify/${JWT}?state=${JWT}&q=1`), `https://a.test/verify/${MASK}?state=${MASK}&q=1`);
    assert.deepEqual(redactHeaders([{ name: 'X-Whatever', value: `v=${JWT}` }]), [{ name: 'X-Whatever', value: `v=${MASK}` }]);
    assert.equal(redactBody(`{"data":{"id":"${JWT}"},"n":1}`, 'application/json'), `{"data":{"id":"${MASK}"},"n":1}`);
    assert.equal(redactBody(`a=1&b=${JWT}`, ''), `a=1&b=${MASK}`);
    assert.equal(redactBody(`<p>${JWT}</p>`, 'text/html'), `<p>${MASK}</p>`);
  });

  it('masks the new names in headers, queries and bodies', () => {
    assert.deepEqual(redactHeaders([{ name: 'X-Pin', value: '1234' }]), [{ name: 'X-Pin', value: MASK }]);
    assert.equal(redactUrl('https://a.test/p?pw=hunter2&pin=1234&cvv=123&privateKey=k&page=2'),
      `https://a.test/p?pw=${MASK}&pin=${MASK}&cvv=${MASK}&privateKey=${MASK}&page=2`);
    assert.equal(redactBody('{"card":{"number":"4111","cvc":"123"},"apiKey":"k-1","jwt":"x"}', 'application/json'),
      `{"card":{"number":"4111","cvc":"${MASK}"},"apiKey":"${MASK}","jwt":"${MASK}"}`);
    assert.equal(redactBody('user=ann&pw=hunter2', ''), `user=ann&pw=${MASK}`);
    assert.deepEqual([...secretValues({ body: '{"privateKey":"pk-123456","pin":"9876"}' })].sort(), ['9876', 'pk-123456']);
  });

  it('masks the values of secret headers only', () => {
    assert.deepEqual(redactHeaders([{ name: 'X-Api-Key', value: 'k1' }, { name: 'Accept', value: '*/*' }]),
      [{ name: 'X-Api-Key', value: MASK }, { name: 'Accept', value: '*/*' }]);
  });

  it('masks secret query values and keeps the rest of the URL as it was', () => {
    assert.equal(redactUrl('https://a.test/cb?code=abc&state=x%20y&access_token=t#frag'), `https://a.test/cb?code=${MASK}&state=x%20y&access_token=${MASK}#frag`);
    assert.equal(redactUrl('https://a.test/p?q=1'), 'https://a.test/p?q=1');
    assert.equal(redactUrl('https://a.test/p'), 'https://a.test/p');
  });

  it('masks secret fields of JSON and urlencoded bodies, at any depth', () => {
    assert.equal(redactBody('{"user":"ann","password":"hunter2","nested":{"token":"t","n":1}}', 'application/json'),
      `{"user":"ann","password":"${MASK}","nested":{"token":"${MASK}","n":1}}`);
    assert.equal(redactBody('user=ann&password=hunter2', ''), `user=ann&password=${MASK}`);
    assert.equal(redactBody('just text, password: no structure'), 'just text, password: no structure');
  });

  it('collects the secret values a request carried, to mask their echoes', () => {
    const got = secretValues({
      headers: [{ name: 'X-Api-Key', value: 'key-1234' }, { name: 'Accept', value: 'text/html' }],
      url: 'https://a.test/p?access_token=tok-5678&q=cats',
      body: '{"user":"ann","password":"hunter2","pin":1}',
    });
    assert.deepEqual([...got].sort(), ['hunter2', 'key-1234', 'tok-5678']);
    assert.deepEqual([...secretValues({ body: 'user=ann&password=hunter2' })], ['hunter2']);
  });

  it('fences page text with more backticks than it holds, without invisible characters', () => {
    assert.equal(fenced('a ``` b'), '````\na ``` b\n````');
    assert.equal(fenced('plain'), '```\nplain\n```');
    assert.equal(fenced('x\u202ey\u200bz'), '```\nxyz\n```');
  });
});
