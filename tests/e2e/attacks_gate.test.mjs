// The second attack review's high findings (issue 29), each as the exploit
// that worked against the code before the fix: a hostile page on an allowed
// site A (127.0.0.1) next to a site D the policy denies (localhost).
//   1. save_pdf printed a denied page: the page went back to D (kept in the
//      back/forward cache) on what the print made it see.
//   2. A frame of D slid under the pointer got our trusted click — on every
//      path through the pointer (click, a form tool's submit, fill_form's
//      checkbox, drag); press_key (and type) went into a D frame the page
//      focused.
// docs/policy.md "Threat model" names the structural defences: pinned by
// default (stack/page_tool.js), the press-point check (shared/press_point.js)
// and the focus check (stack/frame_guard.js).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import fs from 'node:fs';
import path from 'node:path';

import { cdpEvaluate, targetWsUrl, useHarness, waitFor } from './harness.mjs';
import { allText, el, refOf } from './page_helpers.mjs';
import { openAfterD, startDenyingD } from './attack_helpers.mjs';
import { listTools } from './own_tools_helpers.mjs';


// ==== 1. save_pdf of a page that goes back to D ==============================

describe('attack: save_pdf of a denied page', { timeout: 300_000 }, () => {
  const h = useHarness();
  const TRIES = 8;
  let env;

  before(async () => {
    env = await startDenyingD(h, 'attack-pdf', { caps: 'download' });
  });

  // D's title in a PDF's metadata, as Chromium writes it (a literal string or UTF-16BE hex).
  const hex = Buffer.from(`\ufeffDenied page`, 'utf16le').swap16().toString('hex').toUpperCase();
  const isDs = (bytes) => bytes.includes('Denied page') || bytes.toString('latin1').toUpperCase().includes(hex);

  it('never writes a PDF of D, whatever the page does when it is printed', async () => {
    const folder = path.join(env.s.homeDir, 'Downloads', 'tabbridge');
    for (let i = 0; i < TRIES; i++) {
      const url = env.web.url(`/attack-gate-pdf.html?n=${i}`);
      const { target, tabId } = await openAfterD(env, `${env.web.localhostOrigin}/attack-capture-denied.html?n=${i}`, url);
      await waitFor(async () => await cdpEvaluate(targetWsUrl(env.port, target), 'document.visibilityState') === 'hidden',
        { what: 'A in the background (which arms it)' });
      await env.s.callOk('focus_tab', { tabId });
      const r = await env.s.call('save_pdf', { fileName: `try-${i}` }, { timeoutMs: 60_000 });
      const written = r.structuredContent?.path;
      if (written) assert.ok(!isDs(fs.readFileSync(written)), `try ${i + 1}: a PDF of D was written to ${written}`);
      else assert.match(allText(r), /changed during the call|denied on localhost/, `try ${i + 1}: ${allText(r)}`);
      await env.s.call('close_tab', { tabId }).catch(() => {});
    }
    for (const f of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
      assert.ok(!isDs(fs.readFileSync(path.join(folder, f))), `${f} is a PDF of D`);
    }
  });
});

// ==== 2. a frame of D slid under the pointer; a D frame given the focus ======

describe('attack: the press lands where the page slid a denied frame', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startDenyingD(h, 'attack-press', { caps: 'drag' });
  });

  const clicksInD = (tab) => tab.frameEval('attack-gate-bank', 'window.trustedClicks');
  const refused = (r, what) => {
    assert.equal(r.isError, true, `${what}: ${allText(r)}`);
    assert.match(allText(r), /nothing was (pressed|done)|could not be confirmed|denied on localhost/, what);
  };
  const open = async (t, query = '') => {
    const tab = await env.open(`/attack-gate-slide.html${query}`, { t });
    assert.equal(await clicksInD(tab), 0, 'precondition: D framed, no clicks');
    return tab;
  };
  const refIn = async (label) => {
    const snap = await waitFor(async () => {
      const [text] = await env.snapshot();
      // D's frame has loaded: the snapshot says it is there and, since the
      // session may not read D, shows none of its text (issue 42 item 1).
      return /a frame of localhost:\d+: not read/.test(text) ? text : null;
    }, { what: "the page with D's frame in the snapshot" });
    assert.doesNotMatch(snap, /Confirm transfer/, 'D\'s words reached the model');
    return refOf(snap, label);
  };

  for (const [name, query] of [['on the first move', ''], ['after the hover was confirmed', '?on=2']]) {
    it(`click: a D frame slid under the pointer ${name} gets no press`, async (t) => {
      const tab = await open(t, query);
      const r = await env.s.call('click', { ref: await refIn(el('button', 'Harmless')) });
      assert.equal(await clicksInD(tab), 0, `a trusted click reached D's button: ${allText(r)}`);
      // Refused — or, with the frames shielded during the press, pressed
      // where it was aimed: through the D frame, onto the button.
      if (!r.isError) assert.equal(await tab.eval('window.harmlessClicks'), 1, allText(r));
      else refused(r, 'click');
    });
  }

  it("a form tool's submit gets no press there either", async (t) => {
    const tab = await open(t);
    const form = await waitFor(async () => (await listTools(env.s)).find((x) => x.name.startsWith('form_')), { what: 'the form tool' });
    const r = await env.s.call(form.name, { email: 'a@example.com' });
    assert.equal(await clicksInD(tab), 0, `a trusted click reached D's button: ${allText(r)}`);
    refused(r, form.name);
  });

  it("fill_form's checkbox gets no press there either", async (t) => {
    const tab = await open(t);
    const r = await env.s.call('fill_form', { fields: [{ selector: '#terms', value: true }] });
    assert.equal(await clicksInD(tab), 0, `a trusted click reached D's button: ${allText(r)}`);
    assert.equal(r.isError, true, allText(r));
    assert.match(allText(r), /nothing was (pressed|done)|could not be confirmed|denied on localhost/);
  });

  it("drag's press gets no press there either", async (t) => {
    const tab = await open(t);
    const r = await env.s.call('drag', { from: '#src', to: '#dst' });
    assert.equal(await clicksInD(tab), 0, `a trusted press reached D's button: ${allText(r)}`);
    refused(r, 'drag');
  });

  it('press_key into a D frame the page focused is denied, and no key reaches it', async (t) => {
    const tab = await env.open('/attack-gate-keys.html', { t });
    await waitFor(async () => await tab.eval('document.activeElement.id === "vf"') &&
      tab.frameEval('attack-gate-bank', 'document.activeElement.id === "confirm"'), { what: "the focus in D's frame, on its button" });
    const r = await env.s.call('press_key', { key: 'Enter' });
    assert.equal(await tab.frameEval('attack-gate-bank', 'window.trustedKeys'), 0, `a trusted key reached D: ${allText(r)}`);
    assert.equal(await clicksInD(tab), 0, 'Enter clicked D\'s button');
    assert.equal(r.isError, true, allText(r));
    assert.match(allText(r), /frame of http:\/\/localhost:\d+: press_key denied on localhost/);
  });

  // The frame element's focus() is what the focus shield stops (focus_shield.js):
  // while keys go to a field of the top document no frame can take the focus.
  it("type into a field that passes its focus to a D frame's element on a key: every key stays in the field", async (t) => {
    const tab = await env.open('/attack-gate-keys.html?steal=element', { t });
    await waitFor(() => tab.eval('window.dLoaded === true'), { what: "D's frame loaded" });
    const r = await env.s.call('type', { selector: '#here', text: 'abc', keyEvents: true, submit: true });
    assert.equal(await tab.frameEval('attack-gate-bank', 'window.trustedKeys'), 0, `a trusted key reached D: ${allText(r)}`);
    assert.notEqual(r.isError, true, allText(r));
    assert.equal(await tab.eval('document.getElementById("here").value'), 'abc');
  });

  // The frame's window's focus() gets past the shield: the check before the key's up refuses.
  it("type into a field that passes its focus to a D frame's window on a key is denied, and no key reaches D", async (t) => {
    const tab = await env.open('/attack-gate-keys.html?steal=window', { t });
    await waitFor(() => tab.eval('window.dLoaded === true'), { what: "D's frame loaded" });
    const r = await env.s.call('type', { selector: '#here', text: 'abc', keyEvents: true, submit: true });
    assert.equal(await tab.frameEval('attack-gate-bank', 'window.trustedKeys'), 0, `a trusted key reached D: ${allText(r)}`);
    assert.equal(await clicksInD(tab), 0, 'Enter clicked D\'s button');
    assert.equal(r.isError, true, allText(r));
    assert.match(allText(r), /frame of http:\/\/localhost:\d+: type denied on localhost/);
  });

  it('a plain click on the same page still works when nothing slides', async (t) => {
    const tab = await env.open('/attack-gate-slide.html?on=1000', { t });
    const r = await env.s.call('click', { ref: await refIn(el('button', 'Harmless')) });
    assert.notEqual(r.isError, true, allText(r));
    assert.equal(await tab.eval('window.harmlessClicks'), 1);
  });
});
