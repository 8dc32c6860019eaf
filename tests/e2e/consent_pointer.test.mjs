// Consent a page cannot steal (issue 44, S1): the person's surface in a real
// headful Chromium on Xvfb, clicked with a real X pointer (lib/pointer.mjs,
// xdotool) — the events go to whatever window is under the pointer, as a
// person's do. A page that keeps the person clicking at one spot ("click the
// star", fixtures/consent-game.html) knows when the surface opens (its window
// loses the focus); here it even knows where the "Allow once" button is, and
// the person's pointer rests on it clicking once, then three times a second,
// for 60 s: no click counts (the pointer never moved inside the window) and
// the window moves away from it at the first one; no grant. A person's
// deliberate move, rest and click grants once; "Always" needs its box ticked
// and then its own confirm, each a move and rest of its own; keyboard access
// works through Tab and a moment's wait, never through an Enter typed for the
// page.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';

import {
  CdpConnection,
  devToolsPages,
  errorText,
  stepper,
  targetWsUrl,
  useHarness,
  waitFor,
  workerEval,
} from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';
import { openTabFromBrowser } from './lib/devtools.mjs';
import { xPointer } from './lib/pointer.mjs';
import { isSurface, PERSON_REST_MS, surfaceUrlOf, WAITS_FOR_PERSON } from './lib/surface.mjs';
import { startXvfb } from './lib/xvfb.mjs';

const ATTACK_MS = 60_000;

describe('a click that was not meant cannot grant', { timeout: 420_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let env, surfaceUrl, policyPath, pointer, game, frame;

  const rules = () => JSON.stringify(JSON.parse(fs.readFileSync(policyPath, 'utf8')).rules ?? []);
  const track = (promise) => {
    const t = { done: false, promise };
    promise.finally(() => { t.done = true; });
    return t;
  };

  // The surface window once it shows question `askIdAfter`+: {cdp, read, box(selector) in screen pixels}.
  async function surface(t) {
    const target = await waitFor(async () => (await devToolsPages(env.port)).find((p) => isSurface(p, surfaceUrl)), {
      what: 'the surface window',
    });
    const cdp = await CdpConnection.open(targetWsUrl(env.port, target));
    t.after(() => cdp.close());
    await waitFor(() => cdp.evaluate("document.body.dataset.armed === 'true'"), { what: 'the question to be on screen' });
    const read = () => cdp.evaluate(`({
      askId: document.body.dataset.askId,
      at: [screenX, screenY],
      hint: document.getElementById('hint').textContent,
      always: document.getElementById('always')?.getAttribute('aria-checked') ?? null,
      confirmShown: document.querySelector('button.always')?.getClientRects().length > 0,
      focused: document.activeElement?.dataset?.control ?? null,
      refused: Number(document.body.dataset.refused ?? 0),
    })`);
    // The middle of `selector` on the screen: the window's place, its frame (measured once), the element's box.
    const box = async (selector) => {
      const r = await cdp.evaluate(`(() => {
        const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
        return { x: screenX + r.x + r.width / 2, y: screenY + r.y + r.height / 2, w: r.width, h: r.height };
      })()`);
      assert.ok(r.w > 0 && r.h > 0, `${selector} is shown`);
      return { x: r.x + frame.x, y: r.y + frame.y };
    };
    return { cdp, read, box };
  }

  // The pointer off every browser window (the surface opens over one): a question shows under no pointer.
  async function parkOutsideTheBrowser() {
    const w = await workerEval(env.port,
      "chrome.windows.getLastFocused({ windowTypes: ['normal'] }).then((w) => ({ l: w.left, t: w.top, r: w.left + w.width, b: w.top + w.height }))");
    const spot = [[1275, 895], [1275, 5], [5, 895], [5, 5]].find(([x, y]) => x < w.l - 4 || x > w.r + 4 || y < w.t - 4 || y > w.b + 4);
    assert.ok(spot, `a place on the screen outside the browser window ${JSON.stringify(w)}`);
    await pointer.moveTo(...spot);
  }

  const surfaceGone = () => waitFor(async () => !(await devToolsPages(env.port)).some((p) => isSurface(p, surfaceUrl)), {
    what: 'the surface window to close',
  });

  before(async () => {
    const { display } = await startXvfb(h);
    pointer = xPointer(display);
    policyPath = path.join(await h.tempDir('tb-e2e-policy-'), 'policy.json');
    fs.writeFileSync(policyPath, JSON.stringify({ default: 'ask', rules: [] }));
    env = await startPageBrowser(h, { name: 'consent-pointer', display, peer: true, extraBrowserArgs: ['--test-type'],
      env: { TABBRIDGE_POLICY: policyPath } });
    surfaceUrl = await surfaceUrlOf(env.port);
    // The game, opened by the person (not the agent): in front, the pointer on its star.
    await openTabFromBrowser(env.port, env.web.url('/consent-game.html'));
    const page = await waitFor(async () => (await devToolsPages(env.port)).find((p) => p.url.endsWith('/consent-game.html')), {
      what: 'the game page',
    });
    game = await CdpConnection.open(targetWsUrl(env.port, page));
    await game.send('Page.bringToFront');
  });

  it('a deliberate move, rest and click on "Allow once" grants once, no rule', step(async (t) => {
    const site = `localhost:${env.web.port}`;
    const call = track(env.s.call('open_tab', { url: `${env.web.localhostOrigin}/a.html` }, WAITS_FOR_PERSON));
    const { cdp, read, box } = await (async () => {
      // The window's frame: measured from a pointer event once the person's pointer is inside it.
      const target = await waitFor(async () => (await devToolsPages(env.port)).find((p) => isSurface(p, surfaceUrl)), {
        what: 'the surface window',
      });
      const probe = await CdpConnection.open(targetWsUrl(env.port, target));
      t.after(() => probe.close());
      await waitFor(() => probe.evaluate("document.body.dataset.armed === 'true'"), { what: 'the question to be on screen' });
      await probe.evaluate(`window.probe = null; addEventListener('pointermove',
        (e) => { window.probe = { x: e.screenX - e.clientX - screenX, y: e.screenY - e.clientY - screenY }; }, true); true`);
      const w = await probe.evaluate('({ x: screenX, y: screenY, w: outerWidth, h: outerHeight })');
      await pointer.moveTo(w.x >= 60 ? w.x - 40 : w.x + w.w + 40, w.y + w.h / 2); // the person's pointer, beside the window
      await pointer.glideTo(w.x + w.w / 2, w.y + w.h / 2);
      frame = await waitFor(() => probe.evaluate('window.probe'), { what: 'a pointer event in the surface' });
      return surface(t);
    })();
    const once = await box('button.once');
    await pointer.glideTo(once.x, once.y);
    await pause(PERSON_REST_MS);
    assert.equal(call.done, false);
    await pointer.click();
    const result = await call.promise;
    assert.notEqual(result.isError, true, `${errorText(result)} (surface said: ${(await read().catch(() => ({}))).hint})`);
    assert.ok(!rules().includes(site), 'once: no rule');
    await surfaceGone();
    cdp.close();
  }));

  for (const [perSecond, which] of [[1, 'once'], [3, 'once']]) {
    it(`a pointer resting on "Allow once", clicking ${perSecond}× a second for 60 s, grants nothing`, step(async (t) => {
      const origin = perSecond === 1 ? env.web.origin : env.peer.origin;
      const site = new URL(origin).host;
      await game.send('Page.bringToFront');
      await parkOutsideTheBrowser();
      const blursBefore = await game.evaluate('window.blurs');
      const call = track(env.s.call('open_tab', { url: `${origin}/a.html?attack=${perSecond}` }, WAITS_FOR_PERSON));
      const { read, box } = await surface(t);
      const first = await read();
      const spot = await box(`button.${which}`);
      await pointer.moveTo(spot.x, spot.y); // the person's pointer on the star, right where the button is
      const started = Date.now();
      let clicks = 0;
      let moved = null;
      let firstRefusal = null;
      while (Date.now() - started < ATTACK_MS) {
        await pointer.click();
        clicks++;
        if (clicks === 1) {
          firstRefusal = await waitFor(async () => ((await read()).refused > 0 ? (await read()).hint : null), {
            what: 'the surface to refuse the first click',
          });
        }
        if (moved === null && !call.done) {
          const now = await read().catch(() => null);
          if (now && (now.at[0] !== first.at[0] || now.at[1] !== first.at[1])) moved = now;
        }
        // The person's rhythm: click n at n / perSecond seconds.
        await pause(Math.max(0, started + (clicks * 1000) / perSecond - Date.now()));
      }
      const result = await call.promise;
      assert.equal(result.isError, true, `no grant: ${JSON.stringify(result.structuredContent ?? errorText(result))}`);
      assert.match(errorText(result), /did not answer/, 'the question ran out unanswered');
      assert.ok(!rules().includes(site), 'no rule');
      assert.match(firstRefusal, /move the pointer onto a button/, 'refused: the pointer never moved in the window');
      assert.ok(moved, 'the window moved away from the pointer at rest under it');
      const gameSaw = await game.evaluate('({ blurs: window.blurs, clicks: window.clicks })');
      assert.ok(gameSaw.blurs > blursBefore, 'the page learnt when the window opened (the attack\'s premise)');
      process.stderr.write(`[consent_pointer] ${perSecond}/s: ${clicks} clicks at (${spot.x}, ${spot.y}); the window went from ` +
        `${first.at} to ${moved.at}; the game got ${gameSaw.clicks} clicks in all\n`);
      await surfaceGone();
    }));
  }

  it('"Always" is a box to tick and then its own confirm, each a deliberate click', step(async (t) => {
    const site = `localhost:${env.peer.port}`;
    const call = track(env.s.call('open_tab', { url: `${env.peer.localhostOrigin}/a.html?always=1` }, WAITS_FOR_PERSON));
    const { read, box } = await surface(t);
    const w = await read();
    assert.equal(w.confirmShown, false, 'no confirm before the box is ticked');
    await pointer.moveTo(w.at[0] >= 60 ? w.at[0] - 40 : w.at[0] + 520, w.at[1] + 100); // beside the window
    const tick = await box('#always');
    await pointer.glideTo(tick.x, tick.y);
    await pause(PERSON_REST_MS);
    await pointer.click();
    await waitFor(async () => (await read()).confirmShown, { what: 'the confirm button' });
    assert.equal((await read()).always, 'true');
    assert.equal(call.done, false, 'the box alone grants nothing');
    const confirm = await box('button.always');
    await pointer.moveTo(confirm.x, confirm.y); // straight there and click at once: not deliberate
    await pointer.click();
    await waitFor(async () => /did not count/.test((await read()).hint), { what: 'the surface to say the click did not count' });
    assert.equal(call.done, false, 'a click with no rest on the confirm grants nothing');
    await pointer.glideTo(confirm.x + 12, confirm.y + 2); // the person holds it there a moment
    await pause(PERSON_REST_MS);
    await pointer.click();
    const result = await call.promise;
    assert.notEqual(result.isError, true, errorText(result));
    await waitFor(() => rules().includes(site), { what: `the rule for ${site}` });
    await surfaceGone();
  }));

  it('keys: an Enter typed for the page answers nothing; Tab to a button and a moment\'s wait does', step(async (t) => {
    const later = await h.startSession({ name: 'consent-keys', socketDir: env.s.socketDir, env: { TABBRIDGE_POLICY: policyPath } });
    t.after(() => later.close());
    await later.callOk('connect_browser', {});
    const call = track(later.call('open_tab', { url: `${env.web.localhostOrigin}/a.html?keys=1` }, WAITS_FOR_PERSON));
    const { cdp, read } = await surface(t);
    await cdp.evaluate("window.keysSeen = 0; addEventListener('keydown', () => { window.keysSeen++; }, true); true");
    // The window asks for the focus; with no window manager on Xvfb, give it as one would.
    await pointer.focusWindow('tabbridge: ');
    await pointer.key('Return'); // the person was typing in the page
    await pointer.key('space');
    await waitFor(() => cdp.evaluate('window.keysSeen >= 2'), { what: 'the keys to reach the surface' });
    assert.equal(call.done, false, 'an Enter typed for the page answered nothing');
    // Moves the focus onto `control` by Tab and shift+Tab within the page, the last key landing it
    // there (a Tab that comes in from the browser's own controls reaches the page as no key).
    const tabTo = async (control) => {
      for (let keys = 0; keys < 8; keys++) {
        const { order, at } = await cdp.evaluate(`(() => ({
          order: [...document.querySelectorAll('#controls [data-control]')].filter((c) => c.getClientRects().length)
            .sort((a, b) => a.tabIndex - b.tabIndex).map((c) => c.dataset.control),
          at: document.activeElement?.dataset?.control ?? null,
        }))()`);
        const want = order.indexOf(control);
        const here = order.indexOf(at);
        if (here === want && keys > 0) return;
        if (here === -1) await pointer.key('Tab'); // from the page's body: the first in order
        else if (here < want || (here === want && here < order.length - 1)) await pointer.key('Tab');
        else await pointer.key('shift+Tab');
      }
      assert.fail(`could not Tab to ${control}`);
    };
    const refusedAfter = async (before) => waitFor(async () => (await read()).refused > before, { what: 'a key refused' });
    let r = (await read()).refused;
    await pointer.key('Tab', 'Return'); // Tab and Enter at once: not a deliberate choice
    await refusedAfter(r);
    assert.equal(call.done, false, 'Tab and Enter at once answered nothing');
    await tabTo('once');
    await pointer.key('a'); // typing for the page after the Tab
    await pause(PERSON_REST_MS);
    r = (await read()).refused;
    await pointer.key('Return');
    await refusedAfter(r);
    assert.equal(call.done, false, 'Tab, typing, then Enter answered nothing');
    await tabTo('once');
    assert.equal((await read()).focused, 'once', 'Tab reaches "Allow once"');
    await pause(PERSON_REST_MS);
    await pointer.key('Return');
    const result = await call.promise;
    assert.notEqual(result.isError, true, errorText(result));
    await surfaceGone();
  }));
});
