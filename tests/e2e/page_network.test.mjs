// network_requests and network_request (--caps network): the page's requests
// since it loaded, one request's headers and bodies as the page sent them and
// the server answered, credentials masked, failures flagged; the policy's
// read denial.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { useHarness } from './harness.mjs';
import { allText, bodyText, startPageBrowser } from './page_helpers.mjs';

describe('network_requests and network_request', { timeout: 150_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'network', caps: 'network' });
    s = env.s;
  });

  // The line of network_requests for a URL part, and its id.
  const lineOf = (text, part) => {
    const line = text.split('\n').find((l) => l.startsWith('- r') && l.includes(part));
    assert.ok(line, `no request ${part} in:\n${text}`);
    return [line, line.split(' ')[1]];
  };

  it('lists the document and the POST a click made; its bodies read back as the page sent them', async (t) => {
    const tab = await env.open('/network.html', { t });
    await env.snapshot(); // the debugger is attached from here: the answer's body is kept
    await s.pageOk('click', { selector: '#save' });
    await tab.waitEval(`document.getElementById('out').textContent.length > 0`, 'the echo shown');
    const list = bodyText(await s.pageOk('network_requests', {}));
    const [doc] = lineOf(list, '/network.html');
    assert.match(doc, /^- r\d+ GET 200 document (\d+(\.\d)? K?B )?\d+ ms /);
    const [post, id] = lineOf(list, '/echo?from=save');
    assert.match(post, /^- r\d+ POST 200 fetch \d+ B \d+ ms /);

    const detail = allText(await s.pageOk('network_request', { id }));
    const sent = await tab.eval('window.sent');
    const echoed = await tab.eval(`document.getElementById('out').textContent`);
    assert.ok(detail.includes(`## Request body (${Buffer.byteLength(sent)} B; page data)\n\n\`\`\`\n${sent}\n\`\`\``), detail);
    assert.ok(detail.includes(`## Response body (${Buffer.byteLength(echoed)} B; page data)\n\n\`\`\`\n${echoed}\n\`\`\``), detail);
    assert.equal(JSON.parse(echoed).body, sent, 'the server got what the page sent');
    assert.match(detail, /^content-type: application\/json$/m);
    assert.match(detail, /^authorization: •••$/mi);
    assert.ok(!detail.includes('s3cret-token'), 'the token is not shown');
  });

  it('credentials are masked in headers, URLs and bodies; a sign-in form\'s body is not shown', async (t) => {
    const tab = await env.open('/network.html', { t });
    await env.snapshot();
    await s.pageOk('click', { selector: '#secret' });
    await tab.waitEval(`document.getElementById('out').textContent.length > 0`, 'the echo shown');
    const list = bodyText(await s.pageOk('network_requests', { filter: 'secret' }));
    const [line, id] = lineOf(list, '/echo?from=secret');
    assert.match(line, /access_token=•••/);
    const detail = allText(await s.pageOk('network_request', { id }));
    for (const secret of ['tok-in-url', 'key-in-header', 'hunter2-json']) assert.ok(!detail.includes(secret), `${secret} shown:\n${detail}`);
    assert.match(detail, /^x-api-key: •••$/mi);
    assert.ok(detail.includes('{"user":"ann","password":"•••"}'), detail);

    await s.pageOk('click', { selector: '#sign-in' });
    // Not the right password: the server sends the form back (303), the same request goes on.
    await tab.waitEval(`location.pathname === '/login.html'`, 'the sign-in answered');
    const after = bodyText(await s.pageOk('network_requests', {}));
    const [post, postId] = lineOf(after, '/login');
    assert.match(post, / POST /);
    const login = allText(await s.pageOk('network_request', { id: postId }));
    assert.ok(!login.includes('hunter2-form'), login);
    assert.match(login, /## Request body\n\nnot shown: a page's form submission may carry a password/);
  });

  it('flags failures, filters, and caps the list', async (t) => {
    const tab = await env.open('/network.html', { t });
    await s.pageOk('click', { selector: '#break' });
    await tab.waitEval(`document.getElementById('out').textContent === 'broken'`, 'both requests done');
    const list = bodyText(await s.pageOk('network_requests', { filter: 'failed' }));
    assert.match(list, /^# Requests of this page \(2 matching "failed", 2 failed\)$/m);
    assert.match(lineOf(list, '/status/500')[0], / GET 500 FAILED fetch /);
    assert.match(lineOf(list, '/nothing-here')[0], / GET net::ERR_CONNECTION_REFUSED FAILED fetch /);
    const one = bodyText(await s.pageOk('network_requests', { limit: 1 }));
    assert.match(one, /^# Requests of this page \(newest 1 of \d+, 2 failed\)$/m);
    assert.equal(one.split('\n').filter((l) => l.startsWith('- r')).length, 1);
  });

  it('a new page starts a new log; an unknown id says where ids come from', async (t) => {
    await env.open('/network.html', { t });
    const first = bodyText(await s.pageOk('network_requests', {}));
    const [, id] = lineOf(first, '/network.html');
    await s.pageOk('navigate', { url: env.web.url('/a.html') });
    const list = bodyText(await s.pageOk('network_requests', {}));
    assert.ok(!list.includes('/network.html'), list);
    const [, text] = await s.pageErr('network_request', { id });
    assert.match(text, /no request r\d+ in this page's log — ids come from network_requests/);
  });
});

describe('network_requests where the policy denies read', { timeout: 120_000 }, () => {
  const h = useHarness();
  it('a request to a site the session may not read shows only that site', async (t) => {
    const dir = await h.tempDir('tb-e2e-network-peer-');
    const policyPath = path.join(dir, 'policy.json');
    fs.writeFileSync(policyPath, JSON.stringify({ rules: [{ sites: ['*'], allow: ['all'] }, { sites: ['localhost'], deny: ['read'] }] }));
    const env = await startPageBrowser(h, { name: 'network-peer', caps: 'network', peer: true, env: { TABBRIDGE_POLICY: policyPath } });
    const tab = await env.open('/network.html', { t });
    await env.s.pageOk('click', { selector: '#peer' });
    await tab.waitEval(`document.getElementById('out').textContent === 'peer asked'`, 'the other site asked');
    const list = bodyText(await env.s.pageOk('network_requests', { filter: 'localhost' }));
    const line = list.split('\n').find((l) => l.startsWith('- r'));
    assert.ok(line, list);
    assert.match(line, /http:\/\/localhost:\d+ \(a site the policy keeps from you\)$/);
    assert.ok(!list.includes('from=peer'), list);
    const [, text] = await env.s.pageErr('network_request', { id: line.split(' ')[1] });
    assert.match(text, /went to http:\/\/localhost:\d+, a site the policy keeps from this session/);
  });

  it('is denied', async (t) => {
    const dir = await h.tempDir('tb-e2e-network-policy-');
    const policyPath = path.join(dir, 'policy.json');
    fs.writeFileSync(policyPath, JSON.stringify({ rules: [{ sites: ['127.0.0.1'], allow: ['navigate', 'act'] }] }));
    const env = await startPageBrowser(h, { name: 'network-denied', caps: 'network', env: { TABBRIDGE_POLICY: policyPath } });
    await env.open('/network.html', { t });
    const [, text] = await env.s.pageErr('network_requests', {});
    assert.match(text, /^network_requests denied on 127\.0\.0\.1:\d+/);
    const [, detail] = await env.s.pageErr('network_request', { id: 'r1' });
    assert.match(detail, /^network_request denied on 127\.0\.0\.1:\d+/);
  });
});
