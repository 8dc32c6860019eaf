// Refs live as long as their document: a second snapshot keeps the numbers of
// unchanged elements. Coordinates stay right at any zoom: CSS zoom on the page
// and inside an iframe, on a display with a device scale factor of 1.75. Each
// click is checked against what the page itself recorded.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { el, refOf, startPageBrowser } from './page_helpers.mjs';

describe('refs across snapshots', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startPageBrowser(h, { name: 'refs' });
  });

  it('a second snapshot gives unchanged elements the same refs, a new element a new one', async (t) => {
    const tab = await env.open('/bench-fixture.html', { t });
    const [first] = await env.snapshot();
    const submit = refOf(first, el('button', 'Submit'));
    const link = refOf(first, el('link', 'Link number 7'));
    await tab.eval(`(() => { const b = document.createElement('button'); b.textContent = 'Added later'; document.body.prepend(b); })()`);
    const [second] = await env.snapshot();
    assert.equal(refOf(second, el('button', 'Submit')), submit);
    assert.equal(refOf(second, el('link', 'Link number 7')), link);
    const added = refOf(second, el('button', 'Added later'));
    assert.ok(![...first.matchAll(/\[ref=([^\]]+)\]/g)].some((m) => m[1] === added), 'the new element got a fresh ref');
    await env.s.pageOk('click', { ref: submit });
    await tab.waitEval(`document.getElementById('status').textContent === 'submitted 1'`, 'the old ref to still click Submit');
  });
});

describe('coordinates at any zoom', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startPageBrowser(h, { name: 'zoom', extraBrowserArgs: ['--force-device-scale-factor=1.75'] });
  });

  it('clicks land on a CSS-zoomed element below the fold on a 1.75x display', async (t) => {
    const tab = await env.open('/zoom.html', { t });
    const [snap] = await env.snapshot();
    await env.s.pageOk('click', { ref: refOf(snap, el('button', 'Outer target')) });
    await tab.waitEval(`document.getElementById('outer').textContent === 'Outer clicked 1'`, 'the zoomed button to be clicked');
    assert.ok((await tab.eval('window.devicePixelRatio')) >= 1.7, 'the display really is scaled');
  });

  it('clicks land inside a zoomed iframe of a zoomed page', async (t) => {
    const tab = await env.open('/zoom.html', { t });
    const [snap] = await env.snapshot();
    await env.s.pageOk('click', { ref: refOf(snap, el('button', 'Inner target')) });
    await tab.waitEval(
      `document.getElementById('frame').contentDocument.getElementById('inner').textContent === 'Inner clicked'`,
      'the button in the zoomed iframe to be clicked',
    );
    assert.equal(await tab.eval(`document.getElementById('outer').textContent`), 'Outer target', 'nothing else was clicked');
  });
});
