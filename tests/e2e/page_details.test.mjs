// Seed 002's tool details (issue 10): ref and selector are exactly-one-of;
// fill_form submits (submit, submitRef) and says whether it did; type key by
// key (keyEvents); scroll to x/y and by a trusted mouse wheel; read_page links
// include/exclude; download_file suggestedName. Every test reads what the
// page really shows back through DevTools, the fixture server's record of
// requests or the file on disk — never the tool's claim alone.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { downloadBytes, useHarness } from './harness.mjs';
import { allText, bodyText, el, refOf, startPageBrowser } from './page_helpers.mjs';

describe('seed 002 tool details (--caps download)', { timeout: 240_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'details', caps: 'download' });
    s = env.s;
  });

  describe('ref and selector are exactly one of', () => {
    it('click with both is a tool error and clicks nothing', async (t) => {
      const tab = await env.open('/details-form.html', { t });
      const [snap] = await env.snapshot();
      const [, text] = await s.pageErr('click', { ref: refOf(snap, el('button', 'Clicker')), selector: '#clicker' });
      assert.match(text, /one of ref or selector/);
      // Then one of them works: the page counted exactly that click.
      await s.pageOk('click', { selector: '#clicker' });
      await tab.waitEval('window.clicks === 1', 'the one click');
    });

    it('a fill_form field with both is a tool error before anything is filled', async (t) => {
      const tab = await env.open('/details-form.html', { t });
      const [snap] = await env.snapshot();
      const [, text] = await s.pageErr('fill_form', {
        fields: [
          { selector: '#q', value: 'first' },
          { ref: refOf(snap, el('textbox', 'Count')), selector: '#n', value: '2' },
        ],
      });
      assert.match(text, /field 2: pass one of ref or selector/);
      assert.equal(await tab.eval(`document.getElementById('q').value + '|' + document.getElementById('n').value`), '|');
    });

    it('type and scroll with both are tool errors too', async (t) => {
      const tab = await env.open('/details-form.html', { t });
      const [snap] = await env.snapshot();
      const [, typed] = await s.pageErr('type', { ref: refOf(snap, el('textbox', 'Keys')), selector: '#q', text: 'x' });
      assert.match(typed, /one of ref or selector/);
      const [, scrolled] = await s.pageErr('scroll', { ref: refOf(snap, el('textbox', 'Keys')), selector: '#q', dy: 100 });
      assert.match(scrolled, /one of ref or selector/);
      assert.equal(await tab.eval(`document.getElementById('q').value + document.getElementById('keys').value`), '');
    });
  });

  describe('fill_form submits', () => {
    it('submit: true clicks the form\'s own button: the server gets the query, the tab navigates', async (t) => {
      const tab = await env.open('/details-form.html', { t });
      const r = await s.pageOk('fill_form', {
        fields: [
          { selector: '#q', value: 'tabbridge details' },
          { selector: '#n', value: '7' },
        ],
        submit: true,
      });
      await tab.waitEval(`location.pathname === '/a.html' && document.readyState === 'complete'`, 'the form to reach /a.html');
      const query = env.web.queriesOf('/a.html').find((q) => q.q === 'tabbridge details');
      assert.deepEqual(query && { q: query.q, n: query.n }, { q: 'tabbridge details', n: '7' }, 'the server received the filled form');
      const text = allText(r);
      assert.match(text, /filled 2 fields/);
      assert.match(text, /clicked button "Search"/);
      assert.match(text, /submitted/);
      assert.match(text, /navigat/);
      assert.deepEqual(r.structuredContent, { filled: 2, submitted: true });
    });

    it('submitRef clicks that element after filling; the page shows what it saved', async (t) => {
      const tab = await env.open('/details-form.html', { t });
      const [snap] = await env.snapshot();
      const r = await s.pageOk('fill_form', {
        fields: [{ ref: refOf(snap, el('textbox', 'Note')), value: 'remember the milk' }],
        submitRef: refOf(snap, el('button', 'Save')),
      });
      await tab.waitEval(`document.getElementById('saved').textContent === 'saved: remember the milk'`, 'the page to save the note');
      assert.equal(await tab.eval('location.pathname'), '/details-form.html');
      assert.match(allText(r), /clicked button "Save"; submitted; the page handled it without navigating/);
      assert.deepEqual(r.structuredContent, { filled: 1, submitted: true });
    });

    it('submit: true on a form with an invalid field says the browser blocked it, and nothing is sent', async (t) => {
      const tab = await env.open('/details-form.html', { t });
      const [, text] = await s.pageErr('fill_form', { fields: [{ selector: '#name', value: 'Ann' }], submit: true });
      assert.match(text, /filled 1 field/);
      assert.match(text, /not submitted: the browser blocked it — invalid fields: .*Email/);
      assert.equal(await tab.eval(`document.getElementById('name').value + '|' + location.pathname`), 'Ann|/details-form.html');
      assert.equal(env.web.requests.filter((q) => q.path === '/b.html').length, 0, 'no request for the form\'s action');
    });
  });

  describe('type keyEvents', () => {
    it('sends one trusted keydown, keypress and keyup per character; insertText sends none', async (t) => {
      const tab = await env.open('/details-form.html', { t });
      const text = 'Hi, 42!';
      const r = await s.pageOk('type', { selector: '#keys', text, keyEvents: true });
      await tab.waitEval(`document.getElementById('keys').value === ${JSON.stringify(text)}`, 'the typed value');
      assert.deepEqual(await tab.eval('[window.keydowns, window.keypresses, window.keyups, window.untrusted]'), [text.length, text.length, text.length, 0]);
      assert.match(allText(r), /typed 7 chars into .* key by key/);
      // Without keyEvents the text is inserted: the field hears no key.
      await s.pageOk('type', { selector: '#keys', text: 'abc' });
      await tab.waitEval(`document.getElementById('keys').value === ${JSON.stringify(`${text}abc`)}`, 'the inserted text');
      assert.equal(await tab.eval('window.keydowns'), text.length);
    });
  });

  describe('scroll', () => {
    it('dy is a trusted mouse wheel; the answer gives the new position the page shows', async (t) => {
      const tab = await env.open('/details-scroll.html', { t });
      const r = await s.pageOk('scroll', { dy: 400 });
      const y = await tab.waitEval('window.scrollY > 0 && window.scrollY', 'the page to scroll down');
      assert.ok(await tab.eval('window.trustedWheels >= 1 && window.trustedWheels === window.wheels'), 'the page heard trusted wheel events only');
      assert.match(allText(r), /mouse wheel/);
      assert.equal(r.structuredContent?.y, y, `the answered position ${JSON.stringify(r.structuredContent)} is the page's`);
    });

    it('x/y scroll the page to that position', async (t) => {
      const tab = await env.open('/details-scroll.html', { t });
      const r = await s.pageOk('scroll', { x: 150, y: 1234 });
      assert.deepEqual(await tab.eval('[window.scrollX, window.scrollY]'), [150, 1234]);
      assert.deepEqual(r.structuredContent, { x: 150, y: 1234 });
      assert.equal(await tab.eval('window.wheels'), 0, 'an absolute scroll sends no wheel');
    });

    it('dy over an element wheels its scroller, not the page; y with a selector scrolls it to that position', async (t) => {
      const tab = await env.open('/details-scroll.html', { t });
      const wheeled = await s.pageOk('scroll', { selector: '#item', dy: 200 });
      const top = await tab.waitEval(`document.getElementById('box').scrollTop`, 'the box to scroll by the wheel');
      assert.equal(await tab.eval('window.scrollY'), 0, 'the page stayed');
      assert.ok(await tab.eval('window.trustedWheels >= 1 && window.trustedWheels === window.wheels'), 'trusted wheel events only');
      assert.equal(wheeled.structuredContent?.y, top, `the answered position ${JSON.stringify(wheeled.structuredContent)} is the box's`);
      const r = await s.pageOk('scroll', { selector: '#box', y: 300 });
      assert.equal(await tab.eval(`document.getElementById('box').scrollTop`), 300);
      assert.equal(r.structuredContent?.y, 300);
    });
  });

  describe('read_page links include/exclude', () => {
    const linksOf = async (args) => bodyText(await s.pageOk('read_page', { mode: 'links', ...args }));

    it('include keeps hrefs matching a substring or * pattern; exclude drops them', async (t) => {
      await env.open('/details-links.html', { t });
      const pdf = await linksOf({ include: '*.pdf' });
      assert.match(pdf, /\/docs\/guide\.pdf\)/);
      assert.match(pdf, /\/files\/report\.pdf\?v=2\)/);
      assert.match(pdf, /example\.invalid\/docs\/spec\.pdf\)/);
      assert.doesNotMatch(pdf, /guide\.html|logout/);

      const docs = await linksOf({ include: '/docs/', exclude: 'example.invalid' });
      assert.match(docs, /guide\.pdf/);
      assert.match(docs, /guide\.html/);
      assert.doesNotMatch(docs, /report|logout|spec\.pdf/);

      const noLogout = await linksOf({ exclude: 'logout' });
      assert.equal((noLogout.match(/^- \[/gm) ?? []).length, 4, noLogout);
    });
  });

  describe('download_file suggestedName', () => {
    it('saves under the suggested name, sanitised as other names are', async (t) => {
      await env.open('/downloads.html', { t });
      const r = await s.pageOk('download_file', { selector: '#other', suggestedName: '../quarterly report.sh' }, { timeoutMs: 60_000 });
      const p = r.structuredContent?.path;
      assert.equal(path.basename(p ?? ''), 'quarterly report.sh.download', `answered path ${p}`);
      assert.ok(fs.readFileSync(p).equals(downloadBytes('other.bin')), 'the file has the served bytes');
      assert.ok([s.homeDir, s.profileDir].some((dir) => p.startsWith(dir + path.sep)), `${p} is in the test's HOME or profile`);
    });
  });
});
