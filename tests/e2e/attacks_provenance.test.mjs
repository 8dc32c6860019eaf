// Issue 42 item 1, "Provenance on every read", and its exploit R1.
//
// * R1: a page's own <form toolname toolautosubmit>, run by tabbridge itself
//   (a browser without WebMCP: the person's everyday Chrome), posts to an
//   allowed URL that answers after ~10.5 s with a redirect to a denied site.
//   The answer carried the denied page's text: the form tool handed the host
//   the URL the tab was going to when its wait ended, and then read whatever
//   document came next. Now every text block of an answer carries the
//   documents it was read from ({documentId, url}, taken by the script that
//   read it: extension/tools/stack/reads.js), and the host decides the site
//   of each before the model sees it (host/read_provenance.cpp).
// * Reads of an allowed page answer in full: no block is dropped for want of
//   provenance (the host would say so in the answer).
//
// Site A = 127.0.0.1 (allowed), D = localhost (denied: DENY_D).

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { allText } from './page_helpers.mjs';
import { startDenyingD } from './attack_helpers.mjs';
import { waitOwn } from './own_tools_helpers.mjs';

const SECRET = /R1-SECRET-7731|R1-TITLE-5521|private words/;
// What the host says when it dropped a block that named no document.
const DROPPED = /without provenance/;

describe('attack R1: a declarative form run by tabbridge lands, after a slow redirect, on a denied site', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startDenyingD(h, 'attack-provenance-r1', { extraBrowserArgs: ['--disable-features=WebMCP'] });
    s = env.s;
  });

  it('the answer holds nothing of the denied page and says the page went to a denied site', async (t) => {
    const tab = await env.open('/r1-order.html', { t });
    assert.equal(await tab.eval(`'modelContext' in document`), false, 'precondition: no native WebMCP');
    const own = await waitOwn(s, (tools) => tools.some((x) => x.name.endsWith('send_order')), 'the declarative form in tools/list');
    const name = own.find((x) => x.name.endsWith('send_order')).name;
    const r = await s.call(name, { item: 'bike' }, { timeoutMs: 120_000 });
    const whole = JSON.stringify(r);
    const text = allText(r);
    t.diagnostic(`answer: ${text.slice(0, 400)}`);
    assert.doesNotMatch(whole, SECRET, `the denied page's words reached the model: ${text}`);
    assert.match(text, /localhost:\d+/, `the answer names the denied site: ${text}`);
    assert.match(text, /denied/, `the answer says it is denied: ${text}`);
    await tab.waitEval(`location.pathname === '/r1-secret.html'`, 'the tab did land on D (the attack ran)');
  });
});

describe('provenance: reads of an allowed page answer in full', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startDenyingD(h, 'provenance-reads');
    s = env.s;
  });

  it('snapshot keeps every block', async (t) => {
    await env.open('/a.html', { t });
    const r = await s.pageOk('snapshot', {});
    const text = allText(r);
    assert.doesNotMatch(text, DROPPED, text);
    assert.doesNotMatch(text, /nothing of it was read/, text);
    assert.match(text, /heading "Page A"/, `the snapshot's lines: ${text}`);
  });

  it('a snapshot of A with a frame of D shows A, and of D only that its frame was not read', async (t) => {
    const tab = await env.open('/attack-input-frame.html', { t });
    await tab.frameEval('attack-input-bank', 'window.trustedClicks'); // D's frame has loaded
    const [text, r] = await env.snapshot();
    assert.doesNotMatch(JSON.stringify(r), /Transfer all funds/, `D's words reached the model: ${text}`);
    assert.match(text, /Shop/, `A's page is shown: ${text}`);
    assert.match(text, /a frame of localhost:\d+: not read — the policy keeps it from this session/, text);
    assert.equal(r.isError, undefined, text);
  });

  it('read_page keeps every block and its structuredContent', async (t) => {
    await env.open('/a.html', { t });
    const r = await s.pageOk('read_page', {});
    const text = allText(r);
    assert.doesNotMatch(text, DROPPED, text);
    assert.doesNotMatch(text, /nothing of it was read/, text);
    assert.ok(r.structuredContent, `structuredContent kept: ${JSON.stringify(r).slice(0, 400)}`);
    assert.doesNotMatch(JSON.stringify(r), /tabbridge\/read/, 'the marks never reach the model');
  });
});

