// navigate (url, back, forward, reload; final URL, title, HTTP status;
// progress notifications), wait_for (appear, text, gone) and read_page
// (markdown with headings and cursor pagination, text, links, info,
// selection, selector). Ground truth: the tab's DevTools target and the
// fixture server's own record of requests.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { allText, bodyText, nextCursor, startPageBrowser } from './page_helpers.mjs';

const ARTICLE_TOKENS = [];
for (let sec = 1; sec <= 12; sec++) for (let p = 1; p <= 4; p++) ARTICLE_TOKENS.push(`tok${String(sec).padStart(2, '0')}${p}x`);
ARTICLE_TOKENS.push('tokENDx');

/** Asserts navigate's answer: URL, title and HTTP status (structuredContent, else the text). */
function assertNavAnswer(result, { url, title, status }) {
  const sc = result.structuredContent ?? {};
  const text = allText(result);
  if (url !== undefined) {
    if (typeof sc.url === 'string') assert.equal(sc.url, url, 'navigate answered url');
    else assert.ok(text.includes(url), `navigate's answer should name the final URL ${url}: ${text}`);
  }
  if (title !== undefined) {
    if (typeof sc.title === 'string') assert.equal(sc.title, title, 'navigate answered title');
    else assert.ok(text.includes(title), `navigate's answer should name the title "${title}": ${text}`);
  }
  if (status !== undefined) {
    const got = sc.status ?? sc.httpStatus ?? sc.statusCode;
    if (got !== undefined) assert.equal(got, status, 'navigate answered HTTP status');
    else assert.match(text, new RegExp(`\\b${status}\\b`), `navigate's answer should give HTTP status ${status}: ${text}`);
  }
}

describe('navigate, wait_for, read_page', { timeout: 240_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'read', peer: true });
    s = env.s;
  });

  /** Follows read_page's cursor to the end: {pages, text (bodies joined by newlines), bodies, cursors}. */
  async function readAll(args) {
    const bodies = [];
    const cursors = [];
    let cursor;
    do {
      const r = await s.pageOk('read_page', cursor ? { ...args, cursor } : args);
      bodies.push(bodyText(r));
      cursor = nextCursor(r);
      cursors.push(cursor);
      assert.ok(bodies.length <= 100, 'more than 100 pages: the cursor does not advance');
    } while (cursor);
    return { pages: bodies.length, text: bodies.join('\n'), bodies, cursors };
  }

  describe('navigate', () => {
    it('url: goes there and answers final URL, title and status 200', async (t) => {
      const tab = await env.open('/a.html', { t });
      const target = env.web.url('/b.html');
      const r = await s.pageOk('navigate', { url: target });
      assert.equal(await tab.eval('location.href'), target, 'the tab is on /b.html');
      assert.equal(await tab.eval('document.title'), 'Page B');
      assertNavAnswer(r, { url: target, title: 'Page B', status: 200 });
    });

    it('url of a 404 page answers status 404', async (t) => {
      const tab = await env.open('/a.html', { t });
      const target = env.web.url('/status/404');
      const r = await s.pageOk('navigate', { url: target });
      assert.equal(await tab.eval('document.title'), 'Status 404', 'the tab shows the 404 page');
      assertNavAnswer(r, { url: target, status: 404 });
    });

    it('url that redirects answers the final URL', async (t) => {
      const tab = await env.open('/a.html', { t });
      const r = await s.pageOk('navigate', { url: env.web.url('/redirect?to=/b.html') });
      assert.equal(await tab.eval('location.href'), env.web.url('/b.html'));
      assertNavAnswer(r, { url: env.web.url('/b.html'), title: 'Page B', status: 200 });
    });

    it('back returns to the previous page', async (t) => {
      const tab = await env.open('/a.html', { t });
      await s.pageOk('navigate', { url: env.web.url('/b.html') });
      await tab.waitEval(`location.pathname === '/b.html'`);
      const r = await s.pageOk('navigate', { action: 'back' });
      await tab.waitEval(`location.href === ${JSON.stringify(tab.url)} && document.readyState === 'complete'`, 'back on /a.html');
      assertNavAnswer(r, { url: tab.url, title: 'Page A', status: 200 });
    });

    it('forward goes to the next page again', async (t) => {
      const tab = await env.open('/a.html', { t });
      await s.pageOk('navigate', { url: env.web.url('/b.html') });
      await tab.waitEval(`location.pathname === '/b.html'`);
      await s.pageOk('navigate', { action: 'back' });
      await tab.waitEval(`location.pathname === '/a.html'`);
      const r = await s.pageOk('navigate', { action: 'forward' });
      await tab.waitEval(`location.pathname === '/b.html' && document.readyState === 'complete'`, 'forward on /b.html');
      assertNavAnswer(r, { url: env.web.url('/b.html'), title: 'Page B', status: 200 });
    });

    it('reload loads the page again (its load counter goes to 2)', async (t) => {
      const tab = await env.open('/reload.html', { t });
      assert.equal(await tab.eval(`document.getElementById('loads').textContent`), '1');
      const r = await s.pageOk('navigate', { action: 'reload' });
      await tab.waitEval(`document.getElementById('loads')?.textContent === '2'`, 'loads = 2 after reload');
      assertNavAnswer(r, { url: tab.url, title: 'Reload counter', status: 200 });
    });

    it('sends progress notifications while a slow page loads, when the client asks (onprogress)', async (t) => {
      const tab = await env.open('/a.html', { t });
      const key = `nav-progress-${Date.now()}`;
      const target = env.web.url(`/slow.html?key=${key}`);
      const progress = [];
      // The server holds the rest of the page until the first progress
      // notification arrives (or HOLD_MAX_MS passes, and then this fails).
      const r = await s.callWithProgress(
        'navigate',
        { url: target },
        (p) => {
          progress.push(p);
          env.web.release(key);
        },
        { timeoutMs: 30_000 },
      );
      assert.notEqual(r.isError, true, `navigate failed: ${allText(r)}`);
      assert.ok(progress.length >= 1, 'at least one notifications/progress arrived before the result');
      assert.ok(progress.every((p) => typeof p.progress === 'number'), JSON.stringify(progress));
      assert.match(await tab.eval(`document.getElementById('end')?.textContent ?? ''`), /end \(released\)/, 'the page was released by the progress notification');
    });
  });

  describe('wait_for', () => {
    /** Opens late.html; the page adds #late (and removes #going) once the test releases its key. */
    async function openLate(t) {
      const key = `late-${Date.now()}-${Math.random()}`;
      const tab = await env.open(`/late.html?key=${encodeURIComponent(key)}`, { t });
      assert.equal(await tab.eval(`!!document.getElementById('late')`), false, 'precondition: #late absent');
      return [tab, key];
    }

    /** wait_for that releases the page's hold on its first progress notification, or 1 s after the call at the latest. */
    async function waitForReleasing(args, key) {
      const fallback = setTimeout(() => env.web.release(key), 1000);
      try {
        return await s.callWithProgress('wait_for', args, () => env.web.release(key), { timeoutMs: 30_000 });
      } finally {
        clearTimeout(fallback);
      }
    }

    it('selector: resolves once the element appears', async (t) => {
      const [tab, key] = await openLate(t);
      const r = await waitForReleasing({ selector: '#late', timeoutMs: 15_000 }, key);
      assert.notEqual(r.isError, true, `wait_for failed: ${allText(r)}`);
      assert.equal(await tab.eval(`!!document.getElementById('late')`), true, '#late is in the page');
    });

    it('text: resolves once the text appears', async (t) => {
      const [tab, key] = await openLate(t);
      const r = await waitForReleasing({ text: 'Late arrival', timeoutMs: 15_000 }, key);
      assert.notEqual(r.isError, true, `wait_for failed: ${allText(r)}`);
      assert.match(await tab.eval('document.body.innerText'), /Late arrival/);
    });

    it('gone: resolves once the element is removed', async (t) => {
      const [tab, key] = await openLate(t);
      const r = await waitForReleasing({ selector: '#going', gone: true, timeoutMs: 15_000 }, key);
      assert.notEqual(r.isError, true, `wait_for failed: ${allText(r)}`);
      assert.equal(await tab.eval(`!!document.getElementById('going')`), false, '#going is gone');
    });

    it('an element already there resolves at once', async (t) => {
      await env.open('/a.html', { t });
      await s.pageOk('wait_for', { selector: 'h1', timeoutMs: 5000 });
    });
  });

  describe('read_page', () => {
    it('markdown renders the headings as #, ##, ###', async (t) => {
      await env.open('/article.html', { t });
      const { text } = await readAll({ mode: 'markdown' });
      assert.match(text, /^#\s+The Long Article\s*$/m);
      assert.match(text, /^##\s+Section 1: Bravo\s*$/m);
      assert.match(text, /^##\s+Section 12: Mike\s*$/m);
      assert.match(text, /^###\s+Subsection 7\.3\s*$/m);
    });

    it('markdown with maxChars paginates by cursor; the pages hold the whole article in order', async (t) => {
      await env.open('/article.html', { t });
      const { pages, text, bodies } = await readAll({ mode: 'markdown', maxChars: 3000 });
      t.diagnostic(`${pages} pages of ${bodies.map((b) => b.length).join(', ')} chars`);
      assert.ok(pages >= 5, `a ~20 KB article at maxChars 3000 takes several pages, got ${pages}`);
      const missing = ARTICLE_TOKENS.filter((tok) => !text.includes(tok));
      assert.deepEqual(missing, [], 'every paragraph of the article came back');
      const positions = ARTICLE_TOKENS.map((tok) => text.indexOf(tok));
      assert.deepEqual(positions, [...positions].sort((a, b) => a - b), 'paragraphs come back in document order');
    });

    it('markdown pages respect maxChars (not counting the line that hands out the cursor)', async (t) => {
      await env.open('/article.html', { t });
      const { bodies, cursors } = await readAll({ mode: 'markdown', maxChars: 3000 });
      const content = bodies.map((body, i) =>
        cursors[i] ? body.split('\n').filter((line) => !line.includes(cursors[i])).join('\n') : body,
      );
      const over = content.map((c) => c.length).filter((n) => n > 3000);
      assert.deepEqual(over, [], `no page is longer than maxChars (page lengths ${content.map((c) => c.length)})`);
    });

    it('markdown keeps the text of disclosure buttons (aria-expanded: an accordion\'s questions), not of other buttons', async (t) => {
      await env.open('/accordion.html', { t });
      const { text } = await readAll({ mode: 'markdown' });
      assert.match(text, /^## How do I return a parcel\?$/m, 'an open question, as its heading');
      assert.match(text, /^Print the label from your order page/m, 'its answer');
      assert.match(text, /^## When is my refund paid\?$/m, 'a closed question');
      assert.match(text, /^GET \/orders List the orders$/m, 'a summary made of spans, as one line');
      assert.doesNotMatch(text, /five working days|No parameters/, 'hidden answers stay out');
      assert.doesNotMatch(text, /Contact support|More answers/, 'a plain button, and an icon-only one, stay out');
    });

    it('text mode returns the text without markdown headings', async (t) => {
      await env.open('/article.html', { t });
      const { text } = await readAll({ mode: 'text' });
      assert.match(text, /The Long Article/);
      assert.ok(text.includes('tok011x') && text.includes('tokENDx'), 'the text holds the article');
      assert.doesNotMatch(text, /^#{1,6}\s+\S/m, 'no markdown heading markers in text mode');
    });

    it('selector limits reading to one element', async (t) => {
      await env.open('/article.html', { t });
      const { text } = await readAll({ mode: 'text', selector: '#section-3' });
      assert.ok(text.includes('tok031x') && text.includes('tok034x'), 'section 3 is there');
      assert.ok(!text.includes('tok011x') && !text.includes('tok041x'), 'other sections are not');
    });

    it('links mode lists the links with absolute URLs', async (t) => {
      await env.open('/article.html', { t });
      const { text } = await readAll({ mode: 'links' });
      assert.ok(text.includes(env.web.url('/a.html')), `links should include ${env.web.url('/a.html')}: ${text}`);
      assert.ok(text.includes(`${env.peer.localhostOrigin}/b.html`), `links should include the peer-site link: ${text}`);
    });

    it('links mode with sameOrigin leaves out other sites', async (t) => {
      await env.open('/article.html', { t });
      const { text } = await readAll({ mode: 'links', sameOrigin: true });
      assert.ok(text.includes(env.web.url('/a.html')), `same-origin link kept: ${text}`);
      assert.ok(!text.includes(env.peer.localhostOrigin), `the peer-site link is left out: ${text}`);
    });

    it('info mode answers the URL and title', async (t) => {
      const tab = await env.open('/article.html', { t });
      const r = await s.pageOk('read_page', { mode: 'info' });
      const all = `${allText(r)}\n${JSON.stringify(r.structuredContent ?? {})}`;
      assert.ok(all.includes(tab.url), `info should give the URL ${tab.url}: ${all}`);
      assert.ok(all.includes('The Long Article'), `info should give the title: ${all}`);
    });

    it('selection mode returns the selected text', async (t) => {
      const tab = await env.open('/article.html', { t });
      await tab.eval(`(() => {
        const range = document.createRange();
        range.selectNodeContents(document.getElementById('intro'));
        getSelection().removeAllRanges();
        getSelection().addRange(range);
      })()`);
      const r = await s.pageOk('read_page', { mode: 'selection' });
      const text = bodyText(r);
      assert.match(text, /This article is long on purpose/);
      assert.ok(!text.includes('tok011x'), 'only the selection');
    });
  });
});
