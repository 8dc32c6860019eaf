// The attack review's findings (issue 17), each as the exploit that worked
// against the code before the fix: a hostile page on an allowed site A
// (127.0.0.1) next to a site D the policy denies (localhost), or a hostile
// program. Every test here succeeds as an attack on the old code and fails
// as one now. docs/policy.md "Threat model" says what is defended and why.
//
// The socket-directory attack (another local user plants a fake host) needs
// a second uid: it is a host/shim test, tests/host/socket_trust_test.cpp.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { allText, startPageBrowser } from './page_helpers.mjs';

// Site A allowed, site D denied, as the review tested it.
export const DENY_D = { rules: [{ sites: ['localhost'], deny: ['all'] }] };

// ==== 1. screenshot and reads return a denied page ==========================

describe('attack: capture', () => {});

// ---- end of section 1 -------------------------------------------------------


// ==== 2. download_file follows redirects into denied sites ==================

describe('attack: download redirects', () => {});

// ---- end of section 2 -------------------------------------------------------


// ==== 4. a page aims trusted typing and clicks; form tools' names ==========

describe('attack: page-aimed input', () => {});

// ---- end of section 4 -------------------------------------------------------


// ==== medium: page text, untrusted marks, console forgery, secrets ==========

describe('attack: page text and console', () => {});

// secrets: the lead's. A textarea the page masks, password values inside
// <template> and <noscript>, and text inputs whose autocomplete names a
// password, a card number or code or a one-time code: before the fix the
// snapshot showed their values and read_page html their markup.
describe('attack: secrets a page hides', { timeout: 300_000 }, () => {
  const h = useHarness();
  const SECRETS = ['textarea-Sk3-771', 'current-Pw-5521', 'new-Pw-8830', '4111-0000-7731-2290', 'csc-917', 'otp-640211',
    'template-Pw-3309', 'noscript-Pw-1187'];
  let env;
  let tab;

  before(async () => {
    env = await startPageBrowser(h, { name: 'attack-secrets', caps: 'html' });
    tab = await env.open('/attack-secrets.html');
    // The page really holds them, and one field that is not a secret shows.
    assert.equal(await tab.eval("document.getElementById('notes').value"), 'textarea-Sk3-771');
    assert.equal(await tab.eval("document.getElementById('card').value"), '4111-0000-7731-2290');
  });

  const assertNone = (result, what) => {
    const json = JSON.stringify(result);
    for (const secret of SECRETS) assert.ok(!json.includes(secret), `${what} shows ${secret}`);
  };

  it('snapshot shows the secret fields as dots', async () => {
    const [text, result] = await env.snapshot();
    assertNone(result, 'snapshot');
    assert.match(text, /visible-nick-42/, 'a field that is no secret still shows its value');
    assert.match(text, /textbox "Card number"[^\n]*\[value="•+"\]/);
  });

  for (const mode of ['html', 'text', 'markdown']) {
    it(`read_page ${mode} masks them, in <template> and <noscript> too`, async () => {
      const result = await env.s.pageOk('read_page', { mode });
      assertNone(result, `read_page ${mode}`);
      if (mode === 'html') {
        const html = allText(result);
        assert.match(html, /<template id="later">.*type="password"[^>]*value="•••"/s, 'the template keeps its field, masked');
        assert.match(html, /<noscript>.*type="password"[^>]*value="•••"/s, 'the noscript markup keeps its field, masked');
        assert.match(html, /visible-nick-42/);
      }
    });
  }
});

// ---- end of section medium (pages) ------------------------------------------


// ==== medium: loopback aliases, the audit log, list_changed flood ===========

describe('attack: policy sites, audit, notifications', () => {});

// ---- end of section medium (host) -------------------------------------------
