// navigate answers what really happened (issue 8): the URL the tab already
// shows (right after open_tab, while it may still be loading), a 204, a
// download, a slow page (deadline: still loading, what it shows), and a page
// whose own script navigates elsewhere while it loads. Ground truth: the tab's
// DevTools target and the fixture server's record of requests.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, waitFor } from './harness.mjs';
import { allText, startPageBrowser } from './page_helpers.mjs';

describe('navigate outcomes', { timeout: 240_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'nav' });
    s = env.s;
  });

  it('to the URL the tab already shows, right after open_tab: reloads it, no error', async (t) => {
    // Not waiting for the load: the benchmark's case is navigate just after open_tab.
    const tab = await env.open('/a.html', { t, waitLoad: false });
    const r = await s.pageOk('navigate', { url: tab.url });
    assert.equal(r.structuredContent.url, tab.url, allText(r));
    assert.equal(r.structuredContent.title, 'Page A', allText(r));
    assert.equal(r.structuredContent.status, 200, allText(r));
    assert.equal(await tab.eval('location.href'), tab.url);
  });

  it('to the URL the tab is still loading after open_tab (its first request held): loads it, no error', async () => {
    const key = `nav-same-held-${Date.now()}`;
    const url = env.web.url(`/hold?key=${key}`);
    const opened = await s.callOk('open_tab', { url, focus: true });
    try {
      // The first request is still held when navigate starts; the server lets
      // both go once navigate's own navigation has begun (its "loading" progress).
      const r = await s.callWithProgress('navigate', { url }, (p) => {
        if (p.progress >= 1) env.web.release(key);
      });
      const text = allText(r);
      assert.notEqual(r.isError, true, text);
      assert.equal(r.structuredContent.url, url, text);
      assert.equal(r.structuredContent.status, 200, text);
      assert.ok(env.web.requests.filter((q) => q.path === '/hold' && q.query.key === key).length >= 2, 'both requests reached the server');
    } finally {
      env.web.release(key);
      await s.call('close_tab', { tabId: opened.tab.id }).catch(() => {});
    }
  });

  it('to the URL the tab already shows, once loaded: reloaded with status 200', async (t) => {
    const tab = await env.open('/reload.html', { t });
    const r = await s.pageOk('navigate', { url: tab.url });
    assert.equal(r.structuredContent.url, tab.url, allText(r));
    assert.equal(r.structuredContent.status, 200, allText(r));
    await tab.waitEval(`document.getElementById('loads')?.textContent === '2'`, 'the page loaded a second time');
  });

  it('to a URL that answers 204: says so, and the page stays where it was', async (t) => {
    const tab = await env.open('/a.html', { t });
    const target = env.web.url('/no-content');
    const r = await s.call('navigate', { url: target });
    const text = allText(r);
    assert.equal(r.isError, true, text);
    assert.match(text, /204 No Content/, text);
    assert.ok(text.includes(`stayed at ${tab.url}`), `names the page it stayed at (${tab.url}): ${text}`);
    assert.doesNotMatch(text, /probably/, 'says what happened, not what probably did');
    assert.ok(env.web.requests.some((q) => q.path === '/no-content'), 'the server was asked');
    assert.equal(await tab.eval('location.href'), tab.url, 'the tab still shows its page');
  });

  it('to a URL that starts a download: names the file, and the page stays where it was', async (t) => {
    const tab = await env.open('/a.html', { t });
    const name = `nav-dl-${Date.now()}.bin`;
    const r = await s.call('navigate', { url: env.web.url(`/download/${name}`) });
    const text = allText(r);
    assert.equal(r.isError, true, text);
    assert.match(text, /started a download/, text);
    assert.ok(text.includes(name), `names the file ${name}: ${text}`);
    assert.ok(text.includes(`stayed at ${tab.url}`), `names the page it stayed at: ${text}`);
    assert.match(text, /download_file/, 'points at download_file');
    assert.equal(await tab.eval('location.href'), tab.url, 'the tab still shows its page');
  });

  it('to a slow page: the deadline answer says it is still loading and what is shown', async (t) => {
    const tab = await env.open('/a.html', { t });
    const key = `nav-slow-${Date.now()}`;
    t.after(() => env.web.release(key));
    const target = env.web.url(`/slow.html?key=${key}`);
    const r = await s.call('navigate', { url: target, timeoutMs: 1500 });
    const text = allText(r);
    assert.equal(r.isError, true, text);
    assert.match(text, /still loading/, text);
    assert.ok(text.includes(target), `names what the tab shows (${target}): ${text}`);
    assert.match(text, /Slow page/, `gives the title shown: ${text}`);
    // The answer came while the server still held the page.
    assert.equal(await tab.eval(`document.getElementById('end') === null`), true, 'the page was still held');
    env.web.release(key);
    await tab.waitEval(`document.getElementById('end')?.textContent === 'end (released)'`, 'the page finishes once released');
  });

  it('a page that navigates elsewhere by itself while loading: answers where it ended up', async (t) => {
    const tab = await env.open('/a.html', { t });
    const key = `nav-interrupt-${Date.now()}`;
    t.after(() => env.web.release(key));
    const target = env.web.url(`/interrupt?key=${key}&to=/b.html`);
    const r = await s.pageOk('navigate', { url: target });
    const text = allText(r);
    const final = env.web.url('/b.html');
    assert.equal(r.structuredContent.url, final, text);
    assert.equal(r.structuredContent.title, 'Page B', text);
    assert.equal(r.structuredContent.status, 200, text);
    assert.ok(text.includes(target), `says it was sent on from ${target}: ${text}`);
    await waitFor(async () => (await tab.eval('location.href')) === final, { what: 'the tab on /b.html' });
  });
});
