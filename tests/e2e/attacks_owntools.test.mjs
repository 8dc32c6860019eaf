// Issue 29, finding 4 and two low findings about form tools, each as the
// exploit that worked against the code before the fix.
//
// * A call runs on another site's tool of the same name: `form_…` names
//   carry no site. A's page (127.0.0.1, a "Send message" form) sends the tab
//   to B's compose page (localhost: another site, allowed too — no policy
//   file), whose form has the same name; the model's form_send_message, with
//   the arguments it built for A, was sent on B — when the call arrived after
//   B loaded, and when it was parked during B's load. Now a call to the page's
//   own tools runs only on the site whose list the session was shown and
//   where the tab was when the session last got an answer (a client fetches
//   B's list when told of it, before the model saw it); otherwise "the page
//   changed to B: call again if you mean B".
// * A form tool's answer echoed a secret field the page holds (a masked
//   text field's PIN, a one-time code) in the submitted GET URL.
// * Fields the call did not set went out silently (the page's script-set
//   values, hidden fields): the answer names them now.
// * Issue 41 item 5 made a press that navigates answer the text of the page
//   it lands on: a button whose press goes through a redirect to a denied
//   site answers the denial and nothing of that page (the host decides the
//   URL of the document read, with where the press sent the tab; issue 42's
//   R1, a redirect slower than the press's wait, is tests/js/result_page's).
//
// docs/policy.md "Threat model" says what is defended and why.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, waitFor } from './harness.mjs';
import { allText, startPageBrowser } from './page_helpers.mjs';
import { startDenyingD } from './attack_helpers.mjs';
import { listTools, ownOf, waitOwnNames } from './own_tools_helpers.mjs';

const TRIES = 3;
const A_ARGS = { to: 'seller@a.example', body: 'Is the bike still for sale?' };

describe('attack: a call runs on another site\'s tool of the same name', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;
  let B; // B's origin (localhost:PORT)
  let bSite; // as the host names it

  before(async () => {
    env = await startPageBrowser(h, { name: 'attack-owntools' });
    s = env.s;
    B = env.web.localhostOrigin;
    bSite = `localhost:${env.web.port}`;
    env.web.vars.B_ORIGIN = B;
  });

  const sentToB = () => env.web.queriesOf('/attack-owntools-sent-b').length;

  // A is open and focused, and the session was shown its list (a fetch).
  const openA = async (t, bPath) => {
    const tab = await env.open(`/attack-owntools-a.html?b=${encodeURIComponent(bPath)}`, { t });
    const own = await waitOwnNames(s, ['form_send_message'], 'A\'s form in tools/list');
    assert.deepEqual(Object.keys(own[0].inputSchema.properties).sort(), ['body', 'to'], 'precondition: A\'s form is listed');
    return tab;
  };

  // The refusal, nothing sent to B.
  const assertRefused = (r, before, what) => {
    const text = allText(r);
    assert.equal(sentToB(), before, `${what}: A's call was submitted on B: ${text}`);
    assert.equal(r.isError, true, `${what}: should be isError: ${text}`);
    assert.match(text, new RegExp(`the page changed to ${bSite}: call again if you mean ${bSite}`), what);
  };
  // Then the next tools/list is B's, and a second call (the model means B
  // now) is sent there and says so.
  const assertThenB = async (before, what) => {
    const own = ownOf(await listTools(s));
    const b = own.find((x) => x.name === 'form_send_message');
    assert.ok(b && 'subject' in b.inputSchema.properties, `${what}: the next tools/list shows B's form: ${JSON.stringify(own)}`);
    const again = await s.pageOk('form_send_message', { to: 'friend@b.example', body: 'hello' });
    assert.equal(sentToB(), before + 1, `${what}: the call again went to B`);
    assert.match(allText(again), new RegExp(`submitted on ${bSite}`), `${what}: the answer names the site`);
  };

  // Odd tries: the client fetched B's list when told of the change (as MCP
  // clients do), but the call is still the one the model made with A's.
  it('the call arrives after B loaded (its list fetched by the client, or not)', async (t) => {
    for (let i = 0; i < TRIES + 1; i++) {
      const tab = await openA(t, '/attack-owntools-b.html');
      const heard = s.listChanged;
      await tab.eval('leave()'); // the page's own timer
      await tab.waitEval(`location.origin === ${JSON.stringify(B)} && !!document.getElementById('compose')`, 'B loaded');
      await s.waitForListChanged(heard + 1); // B's list reached the host
      if (i % 2 === 1) await listTools(s);
      const before = sentToB();
      const r = await s.call('form_send_message', A_ARGS);
      assertRefused(r, before, `try ${i + 1}`);
      await assertThenB(before, `try ${i + 1}`);
      assert.equal(env.web.queriesOf('/attack-owntools-sent-a').length, 0, 'nothing was sent to A either');
    }
  });

  it('the call is parked during B\'s load', async (t) => {
    for (let i = 0; i < TRIES; i++) {
      const key = `owntools-park-${i}-${Date.now()}`;
      const tab = await openA(t, `/attack-owntools-b.html?hold=${key}`);
      await tab.eval('leave()');
      // B committed; its parser waits for /hold, so its form is not there yet.
      await tab.waitEval(`location.origin === ${JSON.stringify(B)}`, 'B committed');
      await waitFor(async () => (await s.listTabs()).tabs.find((x) => x.id === tab.tabId)?.url?.startsWith(B), { what: 'the host sees B' });
      const before = sentToB();
      const call = s.call('form_send_message', A_ARGS);
      await s.listTabs(); // answered after the call above was taken in (one connection, in order): it is parked
      env.web.release(key);
      const r = await call;
      assertRefused(r, before, `try ${i + 1}`);
      await tab.waitEval(`!!document.getElementById('compose')`, 'B\'s form');
      await assertThenB(before, `try ${i + 1}`);
    }
  });
});

describe('attack: what a form tool\'s answer says of the fields it did not set', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'attack-owntools-fields' });
    s = env.s;
  });

  it('the page\'s secret values stay out of the answer (URL too); the fields the call did not set are named', async (t) => {
    await env.open('/attack-owntools-secret.html', { t });
    const own = await waitOwnNames(s, ['form_pay_now'], 'the pay form in tools/list');
    const r = await s.pageOk('form_pay_now', { payee: 'Bob' });
    const sent = env.web.queriesOf('/attack-owntools-paid').at(-1);
    assert.equal(sent?.pin, '4321', 'precondition: the page\'s PIN went out with the form');
    const text = allText(r);
    assert.match(text, /attack-owntools-paid\?/, `the answer names where the form went: ${text}`);
    for (const secret of ['4321', '975310']) assert.ok(!JSON.stringify(r).includes(secret), `the answer echoes ${secret}: ${text}`);
    const props = own[0].inputSchema.properties;
    assert.equal(props.otp?.format, 'password', `a one-time code is a secret parameter: ${JSON.stringify(props)}`);
    // Named, with the page's values where they are no secret; hidden ones by name.
    const also = /also sent, set by the page \(not by this call\): [^;]*(?:; hidden: [^;]*)?/.exec(text)?.[0] ?? '';
    assert.match(also, /note="to attacker IBAN"/, `the page's note: ${text}`);
    assert.match(also, /pin=•••/, `the masked PIN, by name: ${text}`);
    assert.match(also, /otp=•••/, `the one-time code, by name: ${text}`);
    assert.match(also, /hidden: csrf, account/, `the hidden fields: ${text}`);
    assert.doesNotMatch(also, /payee/, `the field the call set is not "also sent": ${text}`);
    assert.ok(!also.includes('DE0012') && !also.includes('tok-4f1e'), `hidden values are not shown: ${text}`);
  });
});

describe('attack: a press of the page\'s own tools lands on a denied site', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startDenyingD(h, 'attack-owntools-landing');
    s = env.s;
  });

  it('a button whose press goes through a redirect to D answers the denial and nothing of D\'s page', async (t) => {
    const to = `/redirect?to=${encodeURIComponent(`${env.web.localhostOrigin}/shop-order.html`)}`;
    const tab = await env.open(`/shop.html?to=${encodeURIComponent(to)}`, { t });
    await waitOwnNames(s, ['form_search', 'press_checkout'], 'the shop\'s search form and Checkout');
    const r = await s.call('press_checkout', {});
    const text = allText(r);
    assert.equal(r.isError, true, text);
    assert.match(text, /^press_checkout: the page went to localhost:\d+ — navigate denied on localhost:\d+/, text);
    assert.doesNotMatch(JSON.stringify(r), /Order 1042|Thank you|Order placed/, `D's words reached the model: ${text}`);
    await tab.waitEval(`location.pathname === '/shop-order.html'`, 'the press did go to D');
  });
});
