// Review of the issue-29 gate (pinned by default, the press-point check, the
// focus check) from outside: a hostile page on an allowed site A (127.0.0.1)
// with a frame of a site D the policy denies (localhost). Each test asserts
// the defence holds; a failing test is an exploit that got through (or, for
// "regression:", an ordinary click refused). At f475b71 these fail: paint lag
// (hover), focus race, key release, wheel, hover, the bordered B frame (both), the
// label re-rendered on hover. They hold: paint lag (raf: pointAt catches the
// move), about:blank, zoom, the unbordered control. The drop tests prove
// nothing: a drop did not reach D even before the press check (450ee0c).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, waitFor, workerEval } from './harness.mjs';
import { allText, el, refOf } from './page_helpers.mjs';
import { startDenyingD } from './attack_helpers.mjs';

const TRIES = Number(process.env.REVIEW_TRIES || 8);

describe('review: trusted input that reaches a denied frame', { timeout: 600_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startDenyingD(h, 'review-press', { caps: 'drag' });
  });

  // D's page in this test's tab: each fixture names its own (?from=…).
  const inD = (tab, from, expr) => tab.frameEval(`attack-review-bank.html?from=${from}`, expr);
  const clicksInD = (tab, from) => inD(tab, from, 'window.trustedClicks');
  const keysInD = (tab, from) => inD(tab, from, 'window.trustedKeys');
  const refIn = async (label, text = 'Harmless') => {
    const snap = await waitFor(async () => {
      const [t] = await env.snapshot();
      return t.includes(text) ? t : null;
    }, { what: 'the page in the snapshot' });
    return refOf(snap, label);
  };

  // Each try on a fresh page (the page arms once; a try refused for another
  // reason leaves it armed).
  for (const mode of ['hover', 'raf']) {
    it(`paint lag (${mode}): a D frame painted over the button, away in the DOM, gets no press`, async (t) => {
      const outcomes = [];
      for (let i = 0; i < TRIES; i++) {
        const tab = await env.open(`/attack-review-paint.html?mode=${mode}&n=${mode}-${i}`, { t });
        const from = `paint-${mode}-${i}`;
        await waitFor(async () => (await clicksInD(tab, from)) === 0, { what: "D's frame loaded" });
        const r = await env.s.call('click', { ref: await refIn(el('button', 'Harmless')) });
        outcomes.push(`${r.isError ? 'refused' : 'done'}: ${allText(r).slice(0, 160)}`);
        const n = await clicksInD(tab, from);
        assert.equal(n, 0, `try ${i + 1}: trusted events reached D's button (${n}); harmless clicks ${await tab.eval('window.harmlessClicks || 0')}; ` +
          `outcomes:\n${outcomes.join('\n')}`);
        await tab.close();
      }
      t.diagnostic(outcomes.join('\n'));
    });
  }

  const focusRace = async (t, by) => {
    const tab = await env.open(`/attack-review-focus.html?ms=2&by=${by}`, { t });
    await waitFor(async () => (await keysInD(tab, 'race')) === 0, { what: "D's frame loaded" });
    const outcomes = [];
    for (let i = 0; i < TRIES * 2; i++) {
      const r = await env.s.call('press_key', { key: 'Enter' });
      outcomes.push(`${r.isError ? 'refused' : 'done'}: ${allText(r).slice(0, 120)}`);
      const k = await keysInD(tab, 'race');
      assert.equal(k, 0, `try ${i + 1}: trusted keys reached D (${k}), clicks in D ${await clicksInD(tab, 'race')}; outcomes:\n${outcomes.join('\n')}`);
    }
    t.diagnostic(outcomes.join('\n'));
  };

  // Closed by the key shield (focus_shield.js): no frame element takes the focus while the key goes.
  it('focus race: press_key while the page passes the focus to and from a D frame element sends no key to D', (t) => focusRace(t, 'element'));

  // The frame's window's focus() gets past the shield (no style stops it):
  // closed by holding the page while the key goes (input_broker.js heldKey).
  it("focus race: press_key while the page passes the focus to and from a D frame's window sends no key to D", (t) => focusRace(t, 'window'));

  it('regression: a button that renders its label again on hover is clicked', async (t) => {
    const tab = await env.open('/attack-review-hoverswap.html', { t });
    const snap = await waitFor(async () => {
      const [x] = await env.snapshot();
      return x.includes('Save') ? x : null;
    }, { what: 'the toolbar' });
    const r = await env.s.call('click', { ref: refOf(snap, el('button', 'Save')) });
    assert.notEqual(r.isError, true, allText(r));
    assert.equal(await tab.eval('window.saves || 0'), 1);
  });

  it('key release: press_key Enter whose key-down hands the focus to D sends D no key', async (t) => {
    const outcomes = [];
    for (let i = 0; i < TRIES; i++) {
      const tab = await env.open(`/attack-review-keyup.html?n=${i}`, { t });
      const ups = () => inD(tab, `keyup-${i}`, 'JSON.stringify(window.trustedKeyUps)').then(JSON.parse);
      await waitFor(async () => (await ups())?.length === 0 && await tab.eval('document.activeElement.id === "here"'), { what: "D's frame loaded, A's field focused" });
      const r = await env.s.call('press_key', { key: 'Enter' });
      const got = await ups();
      outcomes.push(`${allText(r)}; D focused after: ${await inD(tab, `keyup-${i}`, 'document.hasFocus()')}`);
      assert.deepEqual(got, [], `try ${i + 1}: trusted key releases reached D (${JSON.stringify(got)}); outcomes:\n${outcomes.join('\n')}`);
      await tab.close();
    }
    t.diagnostic(outcomes.join('\n'));
  });

  it('regression: a click at the browser zoom the user set for the site (125%) works', async (t) => {
    const tab = await env.open('/attack-review-far.html', { t });
    await workerEval(env.port, `chrome.tabs.setZoom(${tab.tabId}, 1.25).then(() => true)`);
    t.after(() => workerEval(env.port, `chrome.tabs.setZoom(${tab.tabId}, 0).then(() => true)`).catch(() => {}));
    await waitFor(() => tab.eval('Math.round(devicePixelRatio * 100) === 125'), { what: 'the zoom applied' });
    const snap = await waitFor(async () => {
      const [x] = await env.snapshot();
      return x.includes('Apply') ? x : null;
    }, { what: 'the form' });
    const r = await env.s.call('click', { ref: refOf(snap, el('button', 'Apply')) });
    assert.notEqual(r.isError, true, allText(r));
    assert.equal(await tab.eval('window.fars || 0'), 1);
  });

  it('about:blank: a D frame slid over a button of an about:blank frame A wrote gets no press', async (t) => {
    const tab = await env.open('/attack-review-blank.html', { t });
    const clicks = () => clicksInD(tab, 'blank');
    await waitFor(async () => (await clicks()) === 0, { what: "D's frame loaded" });
    const r = await env.s.call('click', { ref: await refIn(el('button', 'Harmless')) });
    const n = await clicks();
    t.diagnostic(`${r.isError ? 'refused' : 'done'}: ${allText(r)}`);
    assert.equal(n, 0, `trusted events reached D's button (${n}): ${allText(r)}`);
  });

  for (const tag of ['iframe', 'object']) {
    it(`drop: an HTML5 drop onto a target the page covers with a D <${tag}> as the drag enters sends D no drop`, async (t) => {
      const tab = await env.open(`/attack-review-drop.html?tag=${tag}`, { t });
      const drops = () => inD(tab, `drop-${tag}`, 'window.trustedDrops');
      await waitFor(async () => (await drops()) === 0, { what: "D's page loaded" });
      const r = await env.s.call('drag', { from: '#src', to: '#dst' });
      const n = await drops();
      t.diagnostic(`${r.isError ? 'refused' : 'done'}: ${allText(r)}; slid: ${await tab.eval('!!window.slid')}`);
      assert.equal(n, 0, `a trusted drop reached D (${n}): ${allText(r)}`);
    });
  }

  // The wheel and hover's move land in D when a frame was drawn between the
  // page's slide and them: a race, so a few fresh pages.
  const slidTries = async (t, from, call, counter, what) => {
    const outcomes = [];
    for (let i = 0; i < TRIES; i++) {
      const tab = await env.open(`/attack-review-wheel.html?from=${from}-${i}`, { t });
      const count = () => inD(tab, `${from}-${i}`, counter);
      await waitFor(async () => (await count()) === 0, { what: "D's frame loaded" });
      const r = await call();
      const n = await count();
      outcomes.push(`${r.isError ? 'refused' : 'done'}: ${allText(r).slice(0, 200)}`);
      assert.equal(n, 0, `try ${i + 1}: ${what} reached D (${n}); D scrolled to ${await inD(tab, `${from}-${i}`, 'scrollY')}; ` +
        `outcomes:\n${outcomes.join('\n')}`);
      await tab.close();
    }
    t.diagnostic(outcomes.join('\n'));
  };

  it('wheel: scroll {selector, dy} over a list the page covers with a D frame on the first move sends D no wheel', (t) =>
    slidTries(t, 'wheel', () => env.s.call('scroll', { selector: '#list', dy: 200 }), 'window.trustedWheels', 'a trusted wheel turn'));

  // Not closed, and low: a move presses nothing; the frame shield covers presses.
  it('hover: the move after the confirmed one goes where the page slid a D frame', {
    todo: 'a mouse move is not checked where it lands (it presses nothing; D sees a hover)',
  }, (t) =>
    slidTries(t, 'hover', () => env.s.call('hover', { selector: '#list' }), 'window.trustedMoves', 'trusted mouse moves'));
});

// A third site B ([::ffff:127.0.0.1], the fixture server through an IPv4-mapped address): allowed, out of process.
describe('review: the pointer mapped into an allowed cross-site frame', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startDenyingD(h, 'review-map');
    env.web.vars.B_ORIGIN = `http://[::ffff:127.0.0.1]:${new URL(env.web.origin).port}`;
  });

  const inB = (tab, expr) => tab.frameEval('[::ffff:7f00:1]', expr);
  const clicksInD = (tab, inner = '') => tab.frameEval(`attack-review-bank.html?from=inner-${inner}`, 'window.trustedClicks');
  const refIn = async (label) => {
    const snap = await waitFor(async () => {
      const [t] = await env.snapshot();
      return t.includes('Edge') && t.includes('Go') ? t : null;
    }, { what: "B's buttons in the snapshot" });
    return refOf(snap, label);
  };

  it("regression: a plain click near the right of a bordered B frame works", async (t) => {
    const tab = await env.open('/attack-review-outer.html', { t });
    await waitFor(async () => (await clicksInD(tab)) === 0, { what: "D's frame loaded" });
    const r = await env.s.call('click', { ref: await refIn(el('button', 'Edge')) });
    assert.notEqual(r.isError, true, allText(r));
    assert.equal(await inB(tab, 'window.edgeClicks || 0'), 1, allText(r));
  });

  it('a D frame slid over a button of B after the hover gets no press (the check looks elsewhere)', async (t) => {
    const tab = await env.open('/attack-review-outer.html?inner=slide', { t });
    await waitFor(async () => (await clicksInD(tab, 'slide')) === 0, { what: "D's frame loaded" });
    const r = await env.s.call('click', { ref: await refIn(el('button', 'Go')) });
    const n = await clicksInD(tab, 'slide');
    assert.equal(n, 0, `trusted events reached D's button (${n}); Go clicks ${await inB(tab, 'window.goClicks || 0')}: ` +
      `${r.isError ? 'refused' : 'done'}: ${allText(r)}`);
  });

  it('control: the same slide into a B frame without a border is refused', async (t) => {
    const tab = await env.open('/attack-review-outer.html?flat&inner=slide-flat', { t });
    await waitFor(async () => (await clicksInD(tab, 'slide-flat')) === 0, { what: "D's frame loaded" });
    const r = await env.s.call('click', { ref: await refIn(el('button', 'Go')) });
    assert.equal(await clicksInD(tab, 'slide-flat'), 0, `trusted events reached D's button: ${allText(r)}`);
    assert.equal(r.isError, true, allText(r));
    t.diagnostic(allText(r));
  });
});
