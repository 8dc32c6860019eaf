// Dialogs (alert, confirm, prompt opened by a click: the click reports it,
// handle_dialog answers it, the page shows the outcome, the tab goes on
// working) and download_file (behind --caps download: by URL and by ref; the
// file on disk has the served bytes).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { downloadBytes, stepper, useHarness } from './harness.mjs';
import { allText, el, refOf, startPageBrowser } from './page_helpers.mjs';

describe('dialogs and downloads (--caps download)', { timeout: 150_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'dialogs', caps: 'download' });
    s = env.s;
  });

  const out = (tab) => tab.eval(`document.getElementById('out').textContent`);

  describe('alert, step by step', () => {
    const step = stepper();
    let tab;

    before(async () => {
      tab = await env.open('/dialogs.html');
    });

    it('a click that opens an alert returns and reports the dialog and its message', step(async () => {
      const clicked = await s.pageOk('click', { selector: '#alert' });
      const text = allText(clicked);
      assert.match(text, /alert|dialog/i, `the click should report the dialog: ${text}`);
      assert.match(text, /Hello from alert/, `the click should give the dialog's message: ${text}`);
    }));

    it('handle_dialog accept closes it and the page runs on ("alert closed")', step(async () => {
      await s.pageOk('handle_dialog', { accept: true });
      await tab.waitEval(`document.getElementById('out').textContent === 'alert closed'`, '"alert closed"');
    }));

    it('the tab is not wedged: a click right after works', step(async () => {
      await s.pageOk('click', { selector: '#plus' });
      await tab.waitEval(`document.getElementById('count').textContent === '1'`, 'count 1');
    }));

    it('handle_dialog with no dialog open is a tool error', step(async () => {
      const [, text] = await s.pageErr('handle_dialog', { accept: true });
      assert.match(text, /dialog/i);
    }));
  });

  it('confirm accepted: the page gets true', async (t) => {
    const tab = await env.open('/dialogs.html', { t });
    await s.pageOk('click', { selector: '#confirm' });
    await s.pageOk('handle_dialog', { accept: true });
    await tab.waitEval(`document.getElementById('out').textContent === 'confirm: true'`, '"confirm: true"');
  });

  it('confirm dismissed: the page gets false', async (t) => {
    const tab = await env.open('/dialogs.html', { t });
    await s.pageOk('click', { selector: '#confirm' });
    await s.pageOk('handle_dialog', { accept: false });
    await tab.waitEval(`document.getElementById('out').textContent === 'confirm: false'`, '"confirm: false"');
  });

  it('prompt accepted with promptText: the page gets the text', async (t) => {
    const tab = await env.open('/dialogs.html', { t });
    const [snap] = await env.snapshot();
    await s.pageOk('click', { ref: refOf(snap, el('button', 'Ask prompt')) });
    await s.pageOk('handle_dialog', { accept: true, promptText: 'Zed from the test' });
    await tab.waitEval(`document.getElementById('out').textContent === 'prompt: Zed from the test'`, '"prompt: Zed from the test"');
  });

  it('prompt dismissed: the page gets null', async (t) => {
    const tab = await env.open('/dialogs.html', { t });
    await s.pageOk('click', { selector: '#prompt' });
    await s.pageOk('handle_dialog', { accept: false });
    await tab.waitEval(`document.getElementById('out').textContent === 'prompt: null'`, '"prompt: null"');
    assert.equal(await out(tab), 'prompt: null');
  });

  describe('download_file', () => {
    /** path, bytes and MIME type of a download_file answer (structuredContent, else JSON text). */
    function downloadAnswer(r) {
      let sc = r.structuredContent;
      if (!sc) {
        for (const c of r.content ?? []) {
          try {
            sc = JSON.parse(c.text);
            break;
          } catch {
            /* not JSON */
          }
        }
      }
      assert.ok(sc && typeof sc === 'object', `download_file answered no structured path/bytes/mime: ${JSON.stringify(r)}`);
      return { path: sc.path, bytes: sc.bytes ?? sc.size, mime: sc.mimeType ?? sc.mime ?? sc.type };
    }

    function assertFileIs(answer, name) {
      const want = downloadBytes(name);
      assert.equal(typeof answer.path, 'string', `path: ${JSON.stringify(answer)}`);
      assert.ok(path.isAbsolute(answer.path), `path is absolute: ${answer.path}`);
      assert.ok(fs.existsSync(answer.path), `the file exists: ${answer.path}`);
      const got = fs.readFileSync(answer.path);
      assert.equal(got.length, want.length, 'file size');
      assert.ok(got.equals(want), 'file bytes equal what the server sent');
      assert.equal(answer.bytes, want.length, 'answered bytes');
      assert.match(String(answer.mime), /^application\/octet-stream/, 'answered MIME type');
    }

    it('by url: answers path, bytes and MIME type; the file on disk has the served bytes', async (t) => {
      await env.open('/downloads.html', { t });
      const r = await s.pageOk('download_file', { url: env.web.url('/download/by-url.bin') }, { timeoutMs: 60_000 });
      assertFileIs(downloadAnswer(r), 'by-url.bin');
    });

    it('by ref (a link from snapshot): the file on disk has the served bytes', async (t) => {
      await env.open('/downloads.html', { t });
      const [snap] = await env.snapshot();
      const r = await s.pageOk('download_file', { ref: refOf(snap, el('link', 'Download by-ref.bin')) }, { timeoutMs: 60_000 });
      assertFileIs(downloadAnswer(r), 'by-ref.bin');
    });

    it('by selector: the file on disk has the served bytes', async (t) => {
      await env.open('/downloads.html', { t });
      const r = await s.pageOk('download_file', { selector: '#other' }, { timeoutMs: 60_000 });
      assertFileIs(downloadAnswer(r), 'other.bin');
    });

    it("the file lands inside the test's own HOME or profile, nowhere else", async (t) => {
      await env.open('/downloads.html', { t });
      const r = await s.pageOk('download_file', { url: env.web.url('/download/where.bin') }, { timeoutMs: 60_000 });
      const p = downloadAnswer(r).path;
      const inside = [s.homeDir, s.profileDir].some((dir) => p.startsWith(dir + path.sep));
      assert.ok(inside, `${p} should be under ${s.homeDir} or ${s.profileDir}`);
    });

    it('a URL that answers 404 is a tool error', async (t) => {
      await env.open('/downloads.html', { t });
      const [, text] = await s.pageErr('download_file', { url: env.web.url('/status/404') }, { timeoutMs: 60_000 });
      assert.match(text, /404|not found|failed/i);
    });
  });
});
