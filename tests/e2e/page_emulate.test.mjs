// emulate (--caps emulate): what the page sees follows the emulation — its
// innerWidth, matchMedia, navigator.onLine, its user agent — and so does a
// screenshot; leaving the tab, or reset, undoes it. Without the cap the tool
// is neither listed nor run.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { useHarness } from './harness.mjs';
import { allText, imageInfo, imagesOf, startPageBrowser } from './page_helpers.mjs';

const VIEW = `[innerWidth, matchMedia('(prefers-color-scheme: dark)').matches, navigator.onLine, navigator.userAgent]`;

describe('emulate', { timeout: 150_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'emulate', caps: 'emulate' });
    s = env.s;
  });

  it('a phone viewport and dark mode: the page and a screenshot follow', async (t) => {
    const tab = await env.open('/emulate.html', { t });
    const text = allText(await s.pageOk('emulate', { viewport: { width: 390, height: 844, deviceScaleFactor: 2, mobile: true }, colorScheme: 'dark' }));
    assert.match(text, /emulating viewport 390x844 @2x mobile, dark color scheme/);
    await tab.waitEval(`innerWidth === 390 && matchMedia('(prefers-color-scheme: dark)').matches`, 'the page at 390 px, dark');
    const shot = imagesOf(await s.pageOk('screenshot', { format: 'png' }))[0];
    const { width, height } = imageInfo(Buffer.from(shot.data, 'base64'));
    assert.ok(height > width * 2, `a phone-shaped screenshot, got ${width}x${height}`);
  });

  it('offline and a user agent: navigator says so; reset undoes all of it', async (t) => {
    const tab = await env.open('/emulate.html', { t });
    const before = await tab.eval(VIEW);
    await s.pageOk('emulate', { offline: true, userAgent: 'TabbridgeTestPhone/1.0' });
    await tab.waitEval(`navigator.onLine === false && navigator.userAgent === 'TabbridgeTestPhone/1.0'`, 'offline, the given user agent');
    const text = allText(await s.pageOk('emulate', { reset: true }));
    assert.match(text, /no emulation/);
    await tab.waitEval(`navigator.onLine === true && navigator.userAgent === ${JSON.stringify(before[3])} && innerWidth === ${before[0]}`, 'the page as before');
  });

  it('leaving the tab undoes the emulation', async (t) => {
    const tab = await env.open('/emulate.html', { t });
    const width = await tab.eval('innerWidth');
    await s.pageOk('emulate', { viewport: { width: 400, height: 700 }, colorScheme: 'dark' });
    await tab.waitEval(`innerWidth === 400`, 'the page at 400 px');
    await env.open('/a.html', { t }); // open_tab focuses the new tab: this session left the first
    await tab.waitEval(`innerWidth === ${width} && !matchMedia('(prefers-color-scheme: dark)').matches`, 'the first tab as before');
  });

  it('emulate with nothing to do is an error saying what to give', async (t) => {
    await env.open('/emulate.html', { t });
    const [, text] = await s.pageErr('emulate', {});
    assert.match(text, /viewport, colorScheme, offline or userAgent/);
  });
});

describe('emulate without --caps emulate', { timeout: 60_000 }, () => {
  const h = useHarness();
  it('is not listed, and a call says which cap turns it on', async (t) => {
    const env = await startPageBrowser(h, { name: 'no-emulate' });
    await env.open('/emulate.html', { t });
    const names = (await env.s.client.listTools()).tools.map((x) => x.name);
    assert.ok(!names.includes('emulate'), names.join(','));
    const [, text] = await env.s.pageErr('emulate', { colorScheme: 'dark' });
    assert.match(text, /--caps emulate/);
  });
});

describe('emulate where the policy denies act', { timeout: 60_000 }, () => {
  const h = useHarness();
  it('is denied, and the page keeps its size', async (t) => {
    const dir = await h.tempDir('tb-e2e-emulate-policy-');
    const policyPath = path.join(dir, 'policy.json');
    fs.writeFileSync(policyPath, JSON.stringify({ rules: [{ sites: ['127.0.0.1'], allow: ['read', 'navigate'] }] }));
    const env = await startPageBrowser(h, { name: 'emulate-denied', caps: 'emulate', env: { TABBRIDGE_POLICY: policyPath } });
    const tab = await env.open('/emulate.html', { t });
    const width = await tab.eval('innerWidth');
    const [, text] = await env.s.pageErr('emulate', { viewport: { width: 300, height: 500 } });
    assert.match(text, /^emulate denied on 127\.0\.0\.1:\d+/);
    assert.equal(await tab.eval('innerWidth'), width);
  });
});
