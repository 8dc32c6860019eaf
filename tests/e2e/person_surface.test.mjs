// The person's surface (extension/surface/, worker/person_surface.js) in a
// real headful Chromium on Xvfb (lib/xvfb.mjs): hello says whether a person
// can see the browser; a page cannot fetch, frame, open or script the
// surface, nor talk to the extension as it. With `"default": "ask"` an
// unknown site is asked on the surface: "Always" lets the call go on and
// writes the rule (a later session is not asked), "Deny" denies — also while
// a page of a granted site tries all it can to reach the surface; ask_person
// is answered by "Done", and a window closed without a button is "I can't";
// the popup lists the grant and its Revoke takes the rule out. The surface is
// found through the browser's DevTools and clicked with
// Input.dispatchMouseEvent — a trusted click, as a person's — while a
// script's click() on its buttons does nothing. Pictures of the grant prompt
// and of the toolbar popup go to TABBRIDGE_E2E_LOG_DIR (or a temp dir); the
// paths are printed (docs/img/ has copies).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  CdpConnection,
  closeTargetFromBrowser,
  devToolsPages,
  devToolsTargets,
  errorText,
  stepper,
  targetWsUrl,
  useHarness,
  waitFor,
  workerEval,
} from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';
import { isSurface, PERSON_REST_MS, SURFACE_PATH, surfaceUrlOf, WAITS_FOR_PERSON } from './lib/surface.mjs';
import { startXvfb } from './lib/xvfb.mjs';
import { stillScreenPng } from './lib/xwd.mjs';


/**
 * A person's click (Input.dispatchMouseEvent: trusted events) at the middle of
 * `selector`'s box in a CDP target: the pointer comes in from the side, rests
 * on it a moment, then clicks (consent_pointer.test.mjs drives a real X pointer).
 */
export async function trustedClick(cdp, selector) {
  const box = await cdp.evaluate(`(() => {
    const r = document.querySelector(${JSON.stringify(selector)})?.getBoundingClientRect();
    return r && r.width > 0 ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;
  })()`);
  assert.ok(box, `nothing to click at ${selector}`);
  for (let i = 4; i >= 0; i--) {
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: Math.max(1, box.x - i * 12), y: Math.max(1, box.y - i * 6) });
  }
  await new Promise((r) => setTimeout(r, PERSON_REST_MS));
  for (const type of ['mousePressed', 'mouseReleased']) {
    await cdp.send('Input.dispatchMouseEvent', { type, x: box.x, y: box.y, button: 'left', clickCount: 1 });
  }
}

const picturesDir = () => process.env.TABBRIDGE_E2E_LOG_DIR || os.tmpdir();

/** Writes a picture for the docs and prints where. */
function savePicture(name, png) {
  fs.mkdirSync(picturesDir(), { recursive: true });
  const file = path.join(picturesDir(), name);
  fs.writeFileSync(file, png);
  process.stderr.write(`[person_surface] ${name}: ${file}\n`);
}

/** Brings a page target's tab forward (Page.bringToFront) and waits until it is shown and painted. */
async function bringForward(cdp) {
  await cdp.send('Page.bringToFront');
  await waitFor(() => cdp.evaluate("document.visibilityState === 'visible'"), { what: 'the tab to be shown' });
  await cdp.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

/** What the hostile page's attempts got, once it made them all. */
const attemptsOf = (cdp) => waitFor(() => cdp.evaluate('window.attempts'), {
  what: 'the page to try everything',
}).catch(async (e) => {
  throw new Error(`${e.message}; it went as far as ${JSON.stringify(await cdp.evaluate('window.steps'))}`);
});

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
    env = await startPageBrowser(h, { name: 'surface', display }); // the harness's policy: nobody is asked here
    surfaceUrl = await surfaceUrlOf(env.port);
  });

  it('hello says a person can see the browser', step(async () => {
    assert.equal(env.browser.headless, false);
  }));

  it('a page cannot fetch, frame, open or script the surface, nor talk to the extension', step(async (t) => {
    const tab = await env.open(`/attack-surface.html?surface=${encodeURIComponent(`${surfaceUrl}?ask=1`)}`, { t });
    await tab.ready();
    const cdp = await CdpConnection.open(tab.wsUrl);
    t.after(() => cdp.close());
    await bringForward(cdp); // a tab in the background gets no input
    await trustedClick(cdp, '#try'); // a person's click: window.open is no blocked pop-up
    const got = await attemptsOf(cdp);
    assert.match(got.fetch, /^refused/, 'fetch');
    assert.equal(got.open, 'a window', 'the page did open a window (it is not the surface)');
    assert.ok(!got.framePressed && !got.openPressed, `no surface button reached: ${JSON.stringify(got)}`);
    assert.match(got.connect, /^refused/, 'chrome.runtime.connect');
    // Ground truth from the browser: no target, page or frame, holds the surface's document.
    const targets = (await devToolsTargets(env.port)).filter((x) => x.url.includes(SURFACE_PATH));
    for (const target of targets) {
      const shows = await CdpConnection.open(targetWsUrl(env.port, target)).then(async (c) => {
        try {
          // A blocked load keeps the URL as the target's but is Chrome's error page (chrome-error://chromewebdata/).
          return await c.evaluate(`location.href.startsWith(${JSON.stringify(surfaceUrl)})`);
        } finally {
          c.close();
        }
      }).catch(() => false);
      assert.equal(shows, false, `${target.type} ${target.url} shows the surface`);
    }
    assert.equal((await devToolsPages(env.port)).some((x) => isSurface(x, surfaceUrl)), false, 'no surface page opened by the page');
  }));
});

describe('asking the person on the surface', { timeout: 300_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let env, surfaceUrl, policyPath, fbdir, siteA, siteC, hostile;

  // The surface window once it shows a question it takes clicks for: {cdp, target, read()}.
  async function surface() {
    const target = await waitFor(async () => (await devToolsPages(env.port)).find((t) => isSurface(t, surfaceUrl)), {
      what: 'the surface window',
    });
    const cdp = await CdpConnection.open(targetWsUrl(env.port, target));
    await waitFor(() => cdp.evaluate("document.body.dataset.armed === 'true'"), { what: 'the surface to take clicks' });
    const read = () => cdp.evaluate(`({
      askId: document.body.dataset.askId, kind: document.body.dataset.kind, armed: document.body.dataset.armed,
      heading: document.getElementById('heading').textContent,
      asker: document.getElementById('asker').textContent,
      alwaysBox: document.getElementById('always')?.textContent ?? null,
      confirmShown: document.querySelector('button.always')?.getClientRects().length > 0,
      message: document.getElementById('agent').hidden ? null : document.getElementById('message').textContent,
      messageElements: document.getElementById('message').children.length,
      buttons: [...document.querySelectorAll('#buttons button')].map((b) => b.textContent),
    })`);
    return { cdp, target, read };
  }
  const surfaceGone = () => waitFor(async () => !(await devToolsPages(env.port)).some((t) => isSurface(t, surfaceUrl)), {
    what: 'the surface window to close',
  });
  // A call that is still waiting (for the person).
  const track = (promise) => {
    const t = { done: false, promise };
    promise.finally(() => { t.done = true; });
    return t;
  };
  const rules = () => JSON.stringify(JSON.parse(fs.readFileSync(policyPath, 'utf8')).rules ?? []);

  before(async () => {
    fbdir = await h.tempDir('tb-e2e-fb-');
    const { display } = await startXvfb(h, { fbdir });
    policyPath = path.join(await h.tempDir('tb-e2e-policy-'), 'policy.json');
    fs.writeFileSync(policyPath, JSON.stringify({ default: 'ask', rules: [] }));
    // --test-type: no "unsupported command-line flag" bar over the pictures.
    env = await startPageBrowser(h, { name: 'surface-asks', display, extraBrowserArgs: ['--test-type'],
      env: { TABBRIDGE_POLICY: policyPath } });
    surfaceUrl = await surfaceUrlOf(env.port);
    siteA = `127.0.0.1:${env.web.port}`;
    siteC = `localhost:${env.web.port}`;
  });

  it('an unknown site is asked; a script\'s click does nothing; "Always" lets the call go on and writes the rule', step(async (t) => {
    const url = env.web.url(`/attack-surface.html?surface=${encodeURIComponent(`${surfaceUrl}?ask=1`)}`);
    const call = track(env.s.call('open_tab', { url }, WAITS_FOR_PERSON));
    const { cdp, read } = await surface();
    t.after(() => cdp.close());
    const shown = await read();
    assert.equal(shown.kind, 'grant');
    assert.match(shown.heading, new RegExp(`^Let an agent .+ ${siteA.replace(/\./g, '\\.')}\\?$`));
    assert.equal(shown.asker, 'Asked by the MCP client that calls itself: tabbridge-e2e');
    assert.deepEqual(shown.buttons.sort(), ['Allow once', 'Deny'], 'one step each; "Always" is a box, then its confirm');
    assert.equal(shown.alwaysBox, `☐ Always allow ${siteA}, in every session`);
    assert.equal(shown.confirmShown, false, 'no confirm of "Always" before its box is ticked');
    savePicture('grant-prompt.png', Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'png' })).data, 'base64'));
    await cdp.evaluate("document.querySelector('#always').click(), document.querySelector('button.once').click(), true"); // a script's clicks
    const after = await read(); // a click the surface takes disarms it at once, in the click
    assert.equal(after.armed, 'true', 'a script\'s click answered nothing');
    assert.equal(after.askId, shown.askId);
    assert.equal(call.done, false);
    await trustedClick(cdp, '#always'); // "Always": the box, then its confirm
    await waitFor(() => cdp.evaluate("document.querySelector('button.always').getClientRects().length > 0"), { what: 'the confirm button' });
    assert.equal(call.done, false, 'the box alone answers nothing');
    await trustedClick(cdp, 'button.always');
    const result = await call.promise;
    assert.notEqual(result.isError, true, errorText(result));
    hostile = { tabId: result.structuredContent.tab.id, url };
    assert.ok(rules().includes(siteA), `the policy file has a rule for ${siteA}: ${rules()}`);
    await surfaceGone();
  }));

  it('while a page of that site tries all it can to reach the surface, "Deny" denies another site', step(async (t) => {
    const call = track(env.s.call('open_tab', { url: `${env.web.localhostOrigin}/a.html` }, WAITS_FOR_PERSON));
    const { cdp, read } = await surface();
    t.after(() => cdp.close());
    const asked = await read();
    assert.match(asked.heading, new RegExp(`${siteC.replace(/\./g, '\\.')}\\?$`));
    // The hostile page, brought forward, tries on a person's click.
    const page = (await devToolsPages(env.port)).find((p) => p.url === hostile.url);
    const pageCdp = await CdpConnection.open(targetWsUrl(env.port, page));
    t.after(() => pageCdp.close());
    await bringForward(pageCdp);
    await trustedClick(pageCdp, '#try');
    const got = await attemptsOf(pageCdp);
    assert.ok(!got.framePressed && !got.openPressed && /^refused/.test(got.fetch) && /^refused/.test(got.connect),
      `the page reached the surface: ${JSON.stringify(got)}`);
    assert.equal(call.done, false, 'the question is still open');
    assert.equal((await read()).askId, asked.askId);
    // The person brings the surface forward again (hidden, it took no click) and clicks Deny.
    await cdp.send('Page.bringToFront');
    await waitFor(() => cdp.evaluate("document.visibilityState === 'visible' && document.body.dataset.armed === 'true'"), {
      what: 'the surface to show again and take clicks',
    });
    await trustedClick(cdp, 'button.deny');
    const result = await call.promise;
    assert.equal(result.isError, true, 'denied');
    assert.match(errorText(result), /the person denied it/, 'the person\'s Deny, not the wait running out');
    assert.ok(!rules().includes(siteC), 'no rule for the denied site');
    await surfaceGone();
  }));

  it('a later session is not asked for the site "Always" allowed', step(async () => {
    const later = await h.startSession({ name: 'surface-later', socketDir: env.s.socketDir, env: { TABBRIDGE_POLICY: policyPath } });
    await later.callOk('connect_browser', {});
    const r = await later.callOk('open_tab', { url: env.web.url('/a.html?later=1') });
    assert.ok(r.tab.id > 0);
    assert.equal((await devToolsPages(env.port)).some((p) => isSurface(p, surfaceUrl)), false, 'no question shown');
    await later.close();
  }));

  it('ask_person shows the model\'s message as text, brings the tab forward, and "Done" answers it', step(async (t) => {
    await env.s.callOk('focus_tab', { tabId: hostile.tabId });
    const message = 'Log in, please: <b>bold</b> <img src=x onerror="window.pwned=1">';
    const call = track(env.s.call('ask_person', { message, timeoutSeconds: 60 }, WAITS_FOR_PERSON));
    const { cdp, read } = await surface();
    t.after(() => cdp.close());
    const shown = await read();
    assert.equal(shown.kind, 'handoff');
    assert.equal(shown.message, message);
    assert.equal(shown.messageElements, 0, 'no markup from the message');
    assert.equal(await cdp.evaluate('window.pwned === undefined'), true);
    assert.deepEqual(shown.buttons.sort(), ['Done', 'I can\'t'].sort());
    const page = (await devToolsPages(env.port)).find((p) => p.url === hostile.url);
    assert.equal(await CdpConnection.open(targetWsUrl(env.port, page)).then(async (c) => {
      try {
        return await c.evaluate("document.visibilityState === 'visible'");
      } finally {
        c.close();
      }
    }), true, 'the hand-off\'s tab is in front');
    assert.equal(call.done, false);
    await trustedClick(cdp, 'button.done');
    const result = await call.promise;
    assert.notEqual(result.isError, true, errorText(result));
    assert.equal(result.structuredContent.answer, 'done');
    assert.equal(result.structuredContent.tab?.url, hostile.url);
    await surfaceGone();
  }));

  it('a surface window closed without a button answers "I can\'t"', step(async () => {
    const call = track(env.s.call('ask_person', { message: 'Solve the CAPTCHA', timeoutSeconds: 60 }, WAITS_FOR_PERSON));
    const { cdp, target } = await surface();
    cdp.close();
    await closeTargetFromBrowser(env.port, target.id);
    const result = await call.promise;
    assert.equal(result.structuredContent?.answer, 'cannot', JSON.stringify(result));
  }));

  it('the popup lists the grant with its icon; Revoke takes the rule out of the policy file', step(async (t) => {
    assert.equal(await workerEval(env.port, 'chrome.action.openPopup().then(() => true)'), true);
    const target = await waitFor(async () => (await devToolsPages(env.port)).find((p) => p.url.includes('/popup/popup.html')), {
      what: 'the toolbar popup',
    });
    const popup = await CdpConnection.open(targetWsUrl(env.port, target));
    t.after(() => popup.close());
    const grantsShown = () => popup.evaluate("[...document.querySelectorAll('#grants li')].map((li) => li.dataset.site + ' ' + li.dataset.scope)");
    await waitFor(async () => (await grantsShown()).includes(`${siteA} always`), { what: `the popup to list ${siteA}` });
    const lines = await popup.evaluate("[...document.querySelectorAll('#grants li .grant')].map((x) => x.textContent)");
    assert.ok(lines.some((l) => l.startsWith(`${siteA} — `) && l.endsWith(' · always')), JSON.stringify(lines));
    savePicture('popup.png', await stillScreenPng(fbdir));
    await trustedClick(popup, `#grants li[data-site="${siteA}"][data-scope="always"] button.revoke`);
    await waitFor(() => !rules().includes(siteA), { what: `the rule for ${siteA} to leave the policy file` });
  }));
});
