// extension/tools/shared/redact.js: what the network tools show has its
// credentials masked, and page text stays inside its fence.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { fenced, isSecretName, redactBody, redactHeaders, redactUrl, secretValues } from '../../extension/tools/shared/redact.js';
import { MASK } from '../../extension/tools/shared/secrets.js';

describe('redact', () => {
  it('knows the names credentials go by, and leaves ordinary ones', () => {
    for (const name of ['Authorization', 'proxy-authorization', 'X-API-Key', 'x-auth-token', 'X-CSRF-Token', 'X-Amz-Security-Token',
      'api_key', 'access_token', 'password', 'passwd', 'client_secret', 'X-Amz-Signature', 'code', 'key', 'sessionId']) {
      assert.ok(isSecretName(name), name);
    }
    for (const name of ['content-type', 'accept', 'title', 'q', 'page', 'user-agent', 'design', 'keyboard']) assert.ok(!isSecretName(name), name);
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
