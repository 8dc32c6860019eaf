// The person's surface (extension/surface/, worker/person_surface.js) in a
// real headful Chromium on Xvfb (lib/xvfb.mjs): hello says whether a person
// can see the browser; a page cannot fetch, frame, open or script the
// surface, nor talk to the extension as it. The surface is found through the
// browser's DevTools and clicked with Input.dispatchMouseEvent — a trusted
// click, as a person's — while a script's click() on its buttons does nothing.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { devToolsTargets, extensionWorker, stepper, targetWsUrl, useHarness, waitFor, CdpConnection } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';
import { startXvfb } from './lib/xvfb.mjs';

const SURFACE_PATH = '/surface/surface.html';

/** A trusted click (Input.dispatchMouseEvent) at the middle of `selector`'s box in a CDP target. */
export async function trustedClick(cdp, selector) {
  const box = await cdp.evaluate(`(() => {
    const r = document.querySelector(${JSON.stringify(selector)})?.getBoundingClientRect();
    return r && r.width > 0 ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;
  })()`);
  assert.ok(box, `nothing to click at ${selector}`);
  for (const type of ['mousePressed', 'mouseReleased']) {
    await cdp.send('Input.dispatchMouseEvent', { type, x: box.x, y: box.y, button: 'left', clickCount: 1 });
  }
}

describe('a headless browser says so in hello', { timeout: 120_000 }, () => {
  const h = useHarness();

  it('browser.headless is true under --headless=new', async () => {
    const env = await startPageBrowser(h, { name: 'surface-headless' });
    assert.equal(env.browser.headless, true);
  });
});

describe('the person\'s surface, headful', { timeout: 240_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let env, surfaceUrl;

  before(async () => {
    const { display } = await startXvfb(h);
    env = await startPageBrowser(h, { name: 'surface', display });
    surfaceUrl = `chrome-extension://${new URL((await extensionWorker(env.port)).url).host}${SURFACE_PATH}`;
  });

  it('hello says a person can see the browser', step(async () => {
    assert.equal(env.browser.headless, false);
  }));

  it('a page cannot fetch, frame, open or script the surface, nor talk to the extension', step(async (t) => {
    const tab = await env.open(`/attack-surface.html?surface=${encodeURIComponent(`${surfaceUrl}?ask=1`)}`, { t });
    await tab.ready();
    const cdp = await CdpConnection.open(tab.wsUrl);
    t.after(() => cdp.close());
    await cdp.send('Page.bringToFront'); // a tab in the background gets no input
    await trustedClick(cdp, '#try'); // a person's click: window.open is no blocked pop-up
    const got = await cdp.evaluate('window.attempts');
    assert.match(got.fetch, /^refused/, 'fetch');
    assert.equal(got.open, 'a window', 'the page did open a window (it is not the surface)');
    assert.ok(!got.framePressed && !got.openPressed, `no surface button reached: ${JSON.stringify(got)}`);
    assert.match(got.connect, /^refused/, 'chrome.runtime.connect');
    // Ground truth from the browser: no target, page or frame, holds the surface's document.
    const targets = (await devToolsTargets(env.port)).filter((x) => x.url.includes(SURFACE_PATH));
    for (const target of targets) {
      const shows = await CdpConnection.open(targetWsUrl(env.port, target)).then(async (c) => {
        try {
          return await c.evaluate(`document.getElementById('buttons') !== null || location.protocol === 'chrome-extension:'`);
        } finally {
          c.close();
        }
      }).catch(() => false);
      assert.equal(shows, false, `${target.type} ${target.url} shows the surface`);
    }
    await waitFor(async () => !(await devToolsTargets(env.port)).some((x) => x.url.startsWith(surfaceUrl) && x.type === 'page'
      && x.title === 'tabbridge asks you'), { what: 'no surface page opened by the page' });
  }));
});
