// Issue 42's input findings, each as the exploit a review ran: a hostile page
// on an allowed site A (127.0.0.1) with a frame of a site D the policy denies
// (localhost).
//   D1. handle_dialog accepted a confirm() a frame of D opened: D's action ran.
//   K1. A page flipping the focus between its field and a D frame's window
//       every 2 ms got trusted press_key keys into D now and then, and the
//       answers did not say what had happened.
// Both succeeded against b7ddb4b (D1 3 of 3; K1 1 key into D in 80 calls,
// its answer "denied … nothing was done"). The one input broker
// (extension/worker/input_broker.js) sends every effectful CDP command, bound
// to the frame it affects and decided for it; raw keys go with the page held
// and are witnessed.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, waitFor } from './harness.mjs';
import { allText } from './page_helpers.mjs';
import { startDenyingD } from './attack_helpers.mjs';

describe('attack: a dialog of a denied frame', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startDenyingD(h, 'attack-dialog');
  });

  // Opens the A page and waits until tabbridge knows D's confirm is open.
  const openWithConfirm = async (t, n) => {
    const tab = await env.open(`/attack-input-dialog.html?n=${n}`, { t });
    assert.notEqual((await env.s.call('press_key', { key: 'Shift' })).isError, true); // the debugger on the tab: a dialog's opening is seen
    await tab.eval(`document.getElementById('df').contentWindow.postMessage('ask', '*'), true`);
    await waitFor(async () => /dialog: a confirm dialog is open/.test((await env.snapshot())[0]),
      { what: "D's confirm known to tabbridge" });
    const [text] = await env.snapshot();
    assert.doesNotMatch(text, /Continue to read the article/, "D's dialog words are D's: left out of the snapshot");
    assert.match(text, /text of .* left out — read denied/, 'the snapshot says what it left out');
  };
  const hits = (p, n) => env.web.queriesOf(p).filter((q) => q.n === String(n)).length;

  it("handle_dialog accept on D's confirm is refused and D's action does not run", async (t) => {
    const n = 'accept';
    await openWithConfirm(t, n);
    const r = await env.s.call('handle_dialog', { accept: true });
    t.diagnostic(`${r.isError ? 'refused' : 'done'}: ${allText(r)}`);
    // The dialog stays open (or is dismissed): either way D learns no "yes".
    const settled = () => hits('/attack-input-transfer', n) + hits('/attack-input-kept', n);
    if (!r.isError) await waitFor(() => settled() > 0, { what: "D's answer reached the server" });
    assert.equal(hits('/attack-input-transfer', n), 0, `D's transfer ran: ${allText(r)}`);
    assert.equal(r.isError, true, allText(r));
    assert.match(allText(r), /localhost/);
    assert.match(allText(r), /nothing was done/);
    assert.equal(hits('/attack-input-kept', n), 0, `the answer says nothing was done, but D was answered: ${allText(r)}`);
  });

  it("handle_dialog dismiss on D's confirm is allowed: the browser's own answer, the one leaving the page gives", async (t) => {
    const n = 'dismiss';
    await openWithConfirm(t, n);
    const r = await env.s.call('handle_dialog', { accept: false });
    assert.notEqual(r.isError, true, allText(r));
    await waitFor(() => hits('/attack-input-kept', n) > 0, { what: "D's 'no' reached the server" });
    assert.equal(hits('/attack-input-transfer', n), 0);
  });
});

describe('attack: raw keys while the page flips the focus into a denied frame', { timeout: 600_000 }, () => {
  const h = useHarness();
  const CALLS = Number(process.env.K1_CALLS || 80);
  let env;

  before(async () => {
    env = await startDenyingD(h, 'attack-keys');
  });

  // CALLS press_key Enter against the page, each call's outcome with what
  // reached A's page and D's frame during it (the page counts them itself).
  let runs = null;
  const race = async (t) => {
    if (runs) return runs;
    const tab = await env.open('/attack-input-focus.html?ms=2', { t });
    await waitFor(() => tab.eval('window.dLoaded === true'), { what: "D's frame loaded" });
    const inD = (expr) => tab.frameEval('attack-review-bank.html?from=k1', expr);
    const counts = async () => ({
      d: await inD('window.trustedKeys + window.trustedKeyUps.length'),
      a: await tab.eval('window.keysHere'),
      aUp: await tab.eval('window.keyUpsHere'),
    });
    runs = [];
    for (let i = 0; i < CALLS; i++) {
      const before = await counts();
      const r = await env.s.call('press_key', { key: 'Enter' });
      const after = await counts();
      runs.push({ r, text: allText(r), d: after.d - before.d, a: after.a - before.a, aUp: after.aUp - before.aUp });
    }
    const line = (x, i) => `${i + 1} ${x.r.isError ? 'refused' : 'done'} (A ${x.a}/${x.aUp}, D ${x.d}): ${x.text.slice(0, 200)}`;
    const done = runs.filter((x) => !x.r.isError).length;
    const odd = runs.map(line).filter((l) => !/ refused \(A 0\/0, D 0\)/.test(l) && !/ done \(A 1\/1, D 0\)/.test(l));
    t.diagnostic(`${done} of ${CALLS} done, ${CALLS - done} refused; calls of note:\n${odd.join('\n')}`);
    return runs;
  };

  it(`${CALLS} press_key Enter: every answer says what was done`, async (t) => {
    const lies = [];
    for (const [i, x] of (await race(t)).entries()) {
      const got = `A got ${x.a} down/${x.aUp} up, D ${x.d}`;
      if (!x.r.isError && (x.a !== 1 || x.aUp !== 1 || x.d !== 0)) lies.push(`call ${i + 1} said "${x.text.slice(0, 80)}" but ${got}`);
      if (x.r.isError && /nothing was (done|pressed)|no key was sent/.test(x.text) && (x.a || x.aUp || x.d)) lies.push(`call ${i + 1} said "${x.text.slice(0, 160)}" but ${got}`);
      if (x.d && !/reached a frame of http:\/\/localhost/.test(x.text)) lies.push(`call ${i + 1} did not tell the keys D got: "${x.text.slice(0, 160)}", ${got}`);
    }
    assert.deepEqual(lies, [], 'answers that did not say what happened');
  });

  // The keys go with the page held (input_broker.js heldKey): nothing in the
  // top document runs between the check of where the focus is and the key.
  it(`${CALLS} press_key Enter: no key reaches D`, async (t) => {
    const got = (await race(t)).reduce((n, x) => n + x.d, 0);
    assert.equal(got, 0, `trusted key events reached D: ${got}`);
  });

  it('type {keyEvents: true}, 20 calls: no key reaches D, and an answer that typed says so only when the field got it', async (t) => {
    const tab = await env.open('/attack-input-focus.html?ms=2', { t });
    await waitFor(() => tab.eval('window.dLoaded === true'), { what: "D's frame loaded" });
    const inD = () => tab.frameEval('attack-review-bank.html?from=k1', 'window.trustedKeys + window.trustedKeyUps.length');
    const outcomes = [];
    for (let i = 0; i < 20; i++) {
      const before = await tab.eval('document.getElementById("here").value');
      const r = await env.s.call('type', { selector: '#here', text: 'ab', keyEvents: true, clear: true });
      const value = await tab.eval('document.getElementById("here").value');
      outcomes.push(`${r.isError ? 'refused' : 'done'} (field "${before}" -> "${value}"): ${allText(r).slice(-200)}`);
      if (!r.isError) assert.equal(value, 'ab', `call ${i + 1} said it typed: ${allText(r)}`);
      else if (value !== before) assert.doesNotMatch(allText(r), /nothing was done/, `call ${i + 1} changed the field: ${allText(r)}`);
    }
    t.diagnostic(outcomes.join('\n'));
    assert.equal(await inD(), 0, `trusted key events reached D:\n${outcomes.join('\n')}`);
  });
});
