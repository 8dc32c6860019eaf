// Secrets stay out of the model's context (issue 9): the values of password
// fields — one the page filled (value attribute and value, as a framework that
// mirrors values does), one the agent types, and a text input the page masks
// with CSS (-webkit-text-security) — appear in no result: snapshot, read_page
// in every mode (html too: the session runs with --caps html), the echoes of
// type, fill_form, select_option and press_key, the page's own form tool (its
// schema and its answer, though the page echoes the typed password in its
// alert), and wait_for cannot find them. Each check first makes sure the page
// really holds the secret (read through DevTools, never through tabbridge),
// so that a result without it means something.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { errorText, useHarness } from './harness.mjs';
import { allText, bodyText, el, refOf, startPageBrowser } from './page_helpers.mjs';
import { listTools, ownOf, waitOwnNames } from './own_tools_helpers.mjs';

// fixtures/secrets.html fills these (spelled backwards in its source).
const SAVED = 'hunter2-Zq9'; // the "Saved password" field
const PIN = 'pin-4471-Qx'; // the "PIN" text input the page masks
// What the agent types.
const TYPED = 'Typed-Pw-77x';
const TYPED_PIN = 'Pin-Typed-93z';
const PAGE_SECRETS = [SAVED, PIN];

const brief = (v, max = 3000) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

/** No secret of `secrets` anywhere in the result (text, structuredContent, _meta). */
function assertNoSecret(result, what, secrets = PAGE_SECRETS) {
  const json = JSON.stringify(result);
  for (const secret of secrets) assert.ok(!json.includes(secret), `${what} shows the secret ${secret}: ${brief(json)}`);
}

describe('secrets stay out of results (--caps html)', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'secrets', caps: 'html' });
    s = env.s;
  });

  const byId = (id) => `document.getElementById(${JSON.stringify(id)})`;

  /** The fixture in a new focused tab, checked to hold its secrets. */
  const openSecrets = async (t) => {
    const tab = await env.open('/secrets.html', { t });
    assert.equal(await tab.eval(`${byId('saved')}.value`), SAVED, 'precondition: the page filled the saved password');
    assert.equal(await tab.eval(`${byId('saved')}.getAttribute('value')`), SAVED, 'precondition: … into its value attribute too');
    assert.equal(await tab.eval(`${byId('pin')}.value`), PIN, 'precondition: the page filled the PIN');
    assert.equal(await tab.eval(`getComputedStyle(${byId('pin')}).webkitTextSecurity`), 'disc', 'precondition: the page masks the PIN');
    return tab;
  };

  it('snapshot shows the password fields with dots, not their values', async (t) => {
    await openSecrets(t);
    const [text, r] = await env.snapshot();
    assertNoSecret(r, 'snapshot');
    const line = text.split('\n').find((l) => el('textbox', 'Saved password').test(l));
    assert.ok(line, `no line for the saved password field in ${brief(text)}`);
    assert.match(line, /value="•+"/, `the field shows that it has a value, as dots: ${line}`);
  });

  it('read_page markdown, text, links and info do not show them', async (t) => {
    await openSecrets(t);
    for (const mode of ['markdown', 'text', 'links', 'info']) {
      const r = await s.pageOk('read_page', { mode });
      assertNoSecret(r, `read_page ${mode}`);
    }
    const r = await s.pageOk('read_page', { mode: 'text', selector: '#login' });
    assertNoSecret(r, 'read_page text of the form');
  });

  it('read_page html masks the value attribute of password fields (whole page, the form, the field)', async (t) => {
    const tab = await openSecrets(t);
    assert.equal(await tab.eval(`document.documentElement.outerHTML.includes(${JSON.stringify(SAVED)})`), true,
      "precondition: the page's HTML holds the saved password");
    const page = await s.pageOk('read_page', { mode: 'html' });
    assertNoSecret(page, 'read_page html');
    const html = bodyText(page);
    assert.match(html, /<input id="saved"[^>]*value="•••"/, `the field is still there, its value masked: ${brief(html, 6000)}`);
    assert.match(html, /id="user"/, 'the rest of the page is there');
    for (const selector of ['#login', '#saved', '#pin']) {
      const r = await s.pageOk('read_page', { mode: 'html', selector });
      assertNoSecret(r, `read_page html ${selector}`);
      assert.match(bodyText(r), /value="•••"/, `read_page html ${selector}: ${bodyText(r)}`);
    }
    // The page's own HTML is not changed by reading it.
    assert.equal(await tab.eval(`${byId('saved')}.getAttribute('value')`), SAVED);
  });

  it('read_page selection does not give text selected in a password field', async (t) => {
    const tab = await openSecrets(t);
    for (const id of ['saved', 'pin']) {
      await tab.eval(`(() => { const f = ${byId(id)}; f.focus(); f.select(); })()`);
      assert.equal(await tab.eval(`document.activeElement.id === ${JSON.stringify(id)} && ${byId(id)}.selectionEnd > 0`), true,
        `precondition: the ${id} field is focused with its text selected`);
      const r = await s.pageOk('read_page', { mode: 'selection' });
      assertNoSecret(r, `read_page selection in ${id}`);
      assert.match(allText(r), /password field/, `the answer says why it gives nothing: ${allText(r)}`);
    }
  });

  it('type into a password field (and the masked PIN) does not echo what was typed', async (t) => {
    const tab = await openSecrets(t);
    const [snap] = await env.snapshot();
    const secrets = [...PAGE_SECRETS, TYPED, TYPED_PIN];
    const typed = await s.pageOk('type', { ref: refOf(snap, el('textbox', 'Password')), text: TYPED });
    assertNoSecret(typed, 'type into Password', secrets);
    assert.match(allText(typed), /value now "•+"/, `the echo says the field has a value: ${allText(typed)}`);
    assert.equal(await tab.eval(`${byId('password')}.value`), TYPED, 'the field has what was typed');

    const pin = await s.pageOk('type', { ref: refOf(snap, el('textbox', 'PIN')), text: TYPED_PIN, clear: true });
    assertNoSecret(pin, 'type into PIN', secrets);
    assert.equal(await tab.eval(`${byId('pin')}.value`), TYPED_PIN);

    // Enter submits: the page writes what was typed into its alert; type does not read it back.
    const submitted = await s.pageOk('type', { ref: refOf(snap, el('textbox', 'Password')), text: '', submit: true });
    assertNoSecret(submitted, 'type with submit', secrets);
    await tab.waitEval(`${byId('says')}.textContent.includes(${JSON.stringify(TYPED)})`, 'the page to echo the typed password');
  });

  it('fill_form and select_option do not echo password values', async (t) => {
    const tab = await openSecrets(t);
    const [snap] = await env.snapshot();
    const secrets = [...PAGE_SECRETS, TYPED, TYPED_PIN];
    const r = await s.pageOk('fill_form', {
      fields: [
        { ref: refOf(snap, el('textbox', 'Username')), value: 'alice' },
        { ref: refOf(snap, el('textbox', 'Password')), value: TYPED },
        { ref: refOf(snap, el('textbox', 'PIN')), value: TYPED_PIN },
        { ref: refOf(snap, el('combobox', 'Remember me')), value: 'day' },
      ],
    });
    assertNoSecret(r, 'fill_form', secrets);
    assert.match(allText(r), /filled 4 fields/, allText(r));
    assert.match(allText(r), /alice/, 'other values are echoed');
    assert.deepEqual(await tab.eval(`[${byId('user')}.value, ${byId('password')}.value, ${byId('pin')}.value, ${byId('remember')}.value]`),
      ['alice', TYPED, TYPED_PIN, 'day']);

    const sel = await s.pageOk('select_option', { selector: '#remember', values: ['week'] });
    assertNoSecret(sel, 'select_option', secrets);
    assert.equal(await tab.eval(`${byId('remember')}.value`), 'week');
  });

  it('press_key moving the focus onto a password field and submitting with Enter does not show it', async (t) => {
    const tab = await openSecrets(t);
    await tab.eval(`${byId('user')}.focus()`);
    const tab1 = await s.pageOk('press_key', { key: 'Tab' });
    assertNoSecret(tab1, 'press_key Tab');
    assert.match(allText(tab1), /Saved password/, `the focus moved onto the saved password: ${allText(tab1)}`);
    const enter = await s.pageOk('press_key', { key: 'Enter' });
    assertNoSecret(enter, 'press_key Enter');
    await tab.waitEval(`${byId('says')}.textContent.startsWith('Wrong password')`, 'the page to handle the submit');
  });

  it("the page's own form tool: no preset secret in its schema, none in its answer though the page echoes it", async (t) => {
    const tab = await openSecrets(t);
    const own = await waitOwnNames(s, ['form_sign_in'], 'sign_in in tools/list');
    const signIn = own.find((x) => x.name === 'form_sign_in');
    assertNoSecret(ownOf(await listTools(s)), 'tools/list');
    const props = signIn.inputSchema?.properties ?? {};
    for (const key of ['saved', 'password', 'pin']) {
      assert.equal(props[key]?.format, 'password', `${key} is a password parameter: ${JSON.stringify(signIn.inputSchema)}`);
    }
    const secrets = [...PAGE_SECRETS, TYPED];
    const r = await s.pageOk('form_sign_in', { user: 'alice', password: TYPED });
    assertNoSecret(r, 'sign_in', secrets);
    // The page did echo the typed password: the answer masked it.
    assert.equal(await tab.eval(`${byId('says')}.textContent`), `Wrong password "${TYPED}" for alice.`);
    assert.match(allText(r), /the page says: .*Wrong password \\?"•••\\?" for alice/, `the answer passes on the rest: ${allText(r)}`);
    assert.equal(await tab.eval(`${byId('saved')}.value`), SAVED, 'the parameter not given kept its value');
  });

  it('wait_for cannot find a password value in the page', async (t) => {
    await openSecrets(t);
    for (const args of [{ text: SAVED }, { selector: '#saved', text: SAVED }, { text: PIN }]) {
      const r = await s.call('wait_for', { ...args, timeoutMs: 300 });
      assert.equal(r.isError, true, `wait_for ${JSON.stringify(args)} should time out: ${brief(r)}`);
      assert.match(errorText(r), /never appeared|none visible contains/, errorText(r));
    }
  });
});
