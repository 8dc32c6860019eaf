// No policy file: the person decides each site (docs/policy.md "Asking the
// person"). In headless Chromium nobody can answer in the browser, so a call
// on a site nobody granted is denied at once with the exact fix, unless the
// MCP client declared elicitation: then its user is asked, and the answer —
// once, always (a rule in the file), deny — decides the call.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { BUILD_DIR, cdpEvaluate, devToolsPages, openTabFromBrowser, targetWsUrl, useHarness, waitFor } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';

const run = promisify(execFile);
const SHIM = path.join(BUILD_DIR, 'bin', 'tabbridge');

// The site of a fixture server as the policy writes it: "127.0.0.1:PORT".
const siteOf = (server) => new URL(server.origin).host;

// Opens `url` from the browser's side (tabbridge would be asked) and focuses it; returns its tab id.
async function focusOpenedByPerson(env, url) {
  await openTabFromBrowser(env.port, url);
  const target = await waitFor(async () => (await devToolsPages(env.port)).find((p) => p.url === url), { what: `the tab of ${url}` });
  // Loaded: a call pinned to the document it starts on would see the loading one replaced.
  await waitFor(async () => (await cdpEvaluate(targetWsUrl(env.port, target), 'document.readyState')) === 'complete',
    { what: `${url} loaded` });
  const tab = await waitFor(async () => (await env.s.listTabs()).tabs.find((t) => t.site && url.includes(t.site) || t.url === url),
    { what: `list_tabs showing ${url}` });
  await env.s.callOk('focus_tab', { tabId: tab.id });
  return tab;
}

describe('no policy file, headless, a client that cannot be asked', () => {
  const h = useHarness();
  let env;
  let policyPath;
  before(async () => {
    env = await startPageBrowser(h, { name: 'ask-nobody', policy: null });
    policyPath = path.join(env.s.stateDir, 'policy.json');
  });

  it('a read is denied with the exact fix, and list_tabs withholds the title', async () => {
    const url = `${env.web.url('/article.html')}?nobody=1`;
    const tab = await focusOpenedByPerson(env, url);
    assert.equal(tab.title, null, 'the title of a site nobody granted is withheld');
    assert.match(tab.withheld, /needs the person's grant/);
    const site = siteOf(env.web);
    const [result, text] = await env.s.pageErr('snapshot');
    assert.match(text, new RegExp(`snapshot on ${site.replace(/\./g, '\\.')} needs the person's grant`));
    assert.match(text, new RegExp(`nobody can answer in this browser .*tabbridge allow ${site.replace(/\./g, '\\.')}\``));
    assert.deepEqual(result.structuredContent.denied.ask, { site, access: 'read', nobody: true });
    await assert.rejects(fsp.stat(policyPath), { code: 'ENOENT' }, 'nothing was written');
  });

  it('open_tab to an unknown site is asked as read and denied; no tab opens', async () => {
    const before = (await devToolsPages(env.port)).length;
    const [result] = await env.s.pageErr('open_tab', { url: env.web.url('/article.html?open=1') });
    assert.equal(result.structuredContent.denied.ask.access, 'read');
    assert.equal((await devToolsPages(env.port)).length, before);
  });

  it('`tabbridge allow SITE` grants reading without a question; acting is still asked', async () => {
    const site = siteOf(env.web);
    const { stdout } = await run(SHIM, ['allow', site], { env: { ...process.env, TABBRIDGE_POLICY: policyPath } });
    assert.match(stdout, new RegExp(`sites ${site.replace(/\./g, '\\.')}; allow read, navigate`));
    const written = JSON.parse(await fsp.readFile(policyPath, 'utf8'));
    assert.deepEqual(written, { default: 'ask', rules: [{ sites: [site], allow: ['read', 'navigate'] }] });
    // The host re-reads the file within half a second.
    await waitFor(async () => !(await env.s.call('snapshot')).isError, { what: 'snapshot allowed after tabbridge allow' });
    const [clicked, text] = await env.s.pageErr('click', { selector: 'a' });
    assert.equal(clicked.structuredContent.denied.ask.access, 'act');
    assert.match(text, new RegExp(`tabbridge allow ${site.replace(/\./g, '\\.')} act\``));
  });

  it('`tabbridge allow` refuses a pattern that is not one site, and an unknown access', async () => {
    const env2 = { ...process.env, TABBRIDGE_POLICY: policyPath };
    await assert.rejects(run(SHIM, ['allow', '*.example.com'], { env: env2 }), /is not one site/);
    await assert.rejects(run(SHIM, ['allow', 'example.com', 'everything'], { env: env2 }), /is not read, act, eval or download/);
  });

  it('ask_person answers at once that nobody can see the browser, and is not listed', async () => {
    assert.ok(!(await env.s.toolNames()).includes('ask_person'));
    const [, text] = await env.s.pageErr('ask_person', { message: 'Please log in' });
    assert.match(text, /nobody can see this browser \(it runs headless\)/);
  });
});

describe('no policy file, headless, a client that declares elicitation', () => {
  const h = useHarness();
  let env;
  let policyPath;
  let answer = () => ({ action: 'cancel' });
  before(async () => {
    env = await startPageBrowser(h, { name: 'ask-client', policy: null, elicitation: (params) => answer(params) });
    policyPath = path.join(env.s.stateDir, 'policy.json');
  });

  // A site of its own per test: a new fixture server is a new port.
  async function newSite() {
    const server = await h.fixtureServer();
    const url = `${server.url('/article.html')}`;
    await focusOpenedByPerson(env, url);
    return siteOf(server);
  }

  it('"once": the call goes on, this session only', async () => {
    const site = await newSite();
    answer = () => ({ action: 'accept', content: { choice: 'once' } });
    const asked = env.s.elicitations.length;
    await env.s.pageOk('snapshot');
    assert.equal(env.s.elicitations.length, asked + 1);
    assert.match(env.s.elicitations.at(-1).message, new RegExp(`wants to read ${site.replace(/\./g, '\\.')}`));
    await env.s.pageOk('snapshot');
    assert.equal(env.s.elicitations.length, asked + 1, 'asked once per session');
    await assert.rejects(fsp.stat(policyPath), { code: 'ENOENT' }, '"once" writes nothing');
    // Another session on the same browser was not granted anything.
    const other = await h.startSession({ name: 'other', socketDir: env.s.socketDir, policy: null });
    await other.callOk('connect_browser', {});
    const tab = (await other.listTabs()).tabs.find((t) => t.site === site);
    await other.callOk('focus_tab', { tabId: tab.id });
    const [result] = await other.pageErr('snapshot');
    assert.equal(result.structuredContent.denied.ask.site, site);
    await other.close();
  });

  it('two calls to one site at once are one question, and both go on', async () => {
    await newSite();
    answer = () => ({ action: 'accept', content: { choice: 'once' } });
    const asked = env.s.elicitations.length;
    const [a, b] = await Promise.all([env.s.call('snapshot'), env.s.call('read_page', {})]);
    assert.notEqual(a.isError, true, JSON.stringify(a).slice(0, 300));
    assert.notEqual(b.isError, true, JSON.stringify(b).slice(0, 300));
    assert.equal(env.s.elicitations.length, asked + 1);
  });

  it('"deny": denied for the session, and not asked again', async () => {
    const site = await newSite();
    answer = () => ({ action: 'accept', content: { choice: 'deny' } });
    const asked = env.s.elicitations.length;
    const [, text] = await env.s.pageErr('snapshot');
    assert.match(text, new RegExp(`denied on ${site.replace(/\./g, '\\.')}: the person denied it for this session`));
    const [, again] = await env.s.pageErr('read_page', {});
    assert.match(again, /the person denied it/);
    assert.equal(env.s.elicitations.length, asked + 1);
  });

  it('a client that cancels leaves the denial with the fix', async () => {
    await newSite();
    answer = () => ({ action: 'cancel' });
    const [result] = await env.s.pageErr('snapshot');
    assert.equal(result.structuredContent.denied.ask.nobody, true);
  });

  it('"always": a rule in the policy file, and the next session is not asked', async () => {
    const site = await newSite();
    answer = () => ({ action: 'accept', content: { choice: 'always' } });
    await env.s.pageOk('snapshot');
    const written = JSON.parse(await fsp.readFile(policyPath, 'utf8'));
    assert.equal(written.default, 'ask', 'a new file keeps asking for other sites');
    assert.deepEqual(written.rules.find((r) => r.sites[0] === site), { sites: [site], allow: ['read', 'navigate'] });
    const next = await h.startSession({ name: 'next', socketDir: env.s.socketDir, policy: null });
    await next.callOk('connect_browser', {});
    const tab = (await next.listTabs()).tabs.find((t) => t.url?.startsWith(`http://${site}/`));
    assert.ok(tab, 'list_tabs shows the granted site with its URL');
    await next.callOk('focus_tab', { tabId: tab.id });
    await next.pageOk('snapshot');
    await next.close();
  });

  it('a grant for reading does not let the agent act: acting is asked separately', async () => {
    await newSite();
    answer = () => ({ action: 'accept', content: { choice: 'once' } });
    await env.s.pageOk('snapshot');
    answer = () => ({ action: 'decline' });
    const [, text] = await env.s.pageErr('click', { selector: 'a' });
    assert.match(text, /the person denied it for this session/);
    assert.match(env.s.elicitations.at(-1).message, /wants to read and act on/);
    await env.s.pageOk('snapshot');
  });
});
