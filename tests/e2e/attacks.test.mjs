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

import fsp from 'node:fs/promises';
import path from 'node:path';

import { CdpConnection, cdpEvaluate, devToolsPages, targetWsUrl, useHarness, waitFor } from './harness.mjs';
import { allText, decodePng, el, imagesOf, refOf, startPageBrowser } from './page_helpers.mjs';
import { DENY_D_ACT, openAfterD, startDenyingD } from './attack_helpers.mjs';
import { unfold } from '../../extension/tools/shared/snapshot_unfold.js';
import { listTools, ownOf } from './own_tools_helpers.mjs';


// ==== 1. screenshot and reads return a denied page ==========================

// A page on A that navigates on what a screenshot makes it see — the tab
// brought forward (visibilitychange), a devicePixelRatio getter — or goes
// back to a D page in its history. Before the fix the image was D's page
// (solid red); now the answer is an error and carries no image.
describe('attack: capture', { timeout: 300_000 }, () => {
  const h = useHarness();
  const TRIES = 5;
  let env;

  before(async () => {
    env = await startDenyingD(h, 'attack-capture');
  });

  // The screenshot must not be D's (solid red). A page captured before it
  // left is A's (green); a page that left first is an error: denied, or moved.
  const assertNotD = (result, what) => {
    for (const image of imagesOf(result)) {
      const png = decodePng(Buffer.from(image.data, 'base64'));
      const [r, g] = png.pixel(Math.floor(png.width / 2), Math.floor(png.height / 2));
      assert.ok(!(r > 200 && g < 60), `${what}: the screenshot shows site D's page`);
    }
  };
  // An image of A (captured before the page left) may come back; D's never.
  const assertNotDenied = (result, what) => {
    assertNotD(result, what);
    if (result.isError) assert.match(allText(result), /denied on localhost|moved/, what);
  };

  const screenshotOf = async (tab) => {
    await env.s.callOk('focus_tab', { tabId: tab.tabId });
    return env.s.call('screenshot', { format: 'png' });
  };

  it('a background page that leaves for D when it is brought forward', async (t) => {
    for (let i = 0; i < TRIES; i++) {
      // Not focused yet: focusing attaches the debugger, whose focus emulation shows the page.
      const tab = await env.open('/attack-capture-visible.html', { t, focus: false });
      assert.equal(await tab.eval('document.visibilityState'), 'hidden', 'precondition: a background tab');
      assertNotDenied(await screenshotOf(tab), `try ${i + 1}`);
    }
  });

  it('a page whose devicePixelRatio getter leaves for D', async (t) => {
    for (let i = 0; i < TRIES; i++) {
      const tab = await env.open('/attack-capture-dpr.html', { t });
      assertNotDenied(await screenshotOf(tab), `try ${i + 1}`);
      assert.equal(await tab.eval('location.href'), tab.url, 'the getter ran: the screenshot measured in the page\'s own world');
    }
  });

  // A guard more than an exploit: here the capture usually wins the race
  // with the way back (old code too); the pin also covers a return to the
  // same document from the back/forward cache.
  it('a page that goes back to a D page in its history when it is brought forward', async (t) => {
    for (let i = 0; i < TRIES; i++) {
      const url = env.web.url(`/attack-capture-visible.html?back&n=${i}`);
      const { target, tabId } = await openAfterD(env, `${env.web.localhostOrigin}/attack-capture-denied.html?n=${i}`, url);
      const tab = { tabId };
      t.after(() => env.s.call('close_tab', { tabId }).catch(() => {}));
      assert.equal(await cdpEvaluate(targetWsUrl(env.port, target), 'document.visibilityState'), 'hidden', 'precondition: a background tab');
      assertNotDenied(await screenshotOf(tab), `try ${i + 1}`);
    }
  });
});

// ---- end of section 1 -------------------------------------------------------


// ==== 2. download_file follows redirects into denied sites ==================

// download_file of an A URL (or a same-site link) that the server redirects
// to D's file: before the fix D's file landed in the download folder and the
// audit line said ok without naming D. Now: a denial naming where it was
// redirected, no file kept, and the audit line names the final URL.
describe('attack: download redirects', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startDenyingD(h, 'attack-download', { caps: 'download' });
    s = env.s;
  });

  const downloaded = async () => {
    const dir = path.join(s.homeDir, 'Downloads');
    const names = await fsp.readdir(dir, { recursive: true }).catch(() => []);
    return names.filter((n) => /d-by-|crdownload/.test(n));
  };
  const auditLines = async () => {
    const text = await fsp.readFile(path.join(s.stateDir, 'tabbridge', 'audit.jsonl'), 'utf8').catch(() => '');
    return text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
  };
  const assertDenied = async (result, file) => {
    const text = allText(result);
    assert.equal(result.isError, true, `the download of D's file succeeded: ${text}`);
    assert.match(text, new RegExp(`redirected to ${env.web.localhostOrigin}/download/${file}`));
    assert.match(text, /denied on localhost/);
    assert.equal(result.structuredContent?.denied?.redirectedTo, `${env.web.localhostOrigin}/download/${file}`);
    assert.deepEqual(await downloaded(), [], 'a file of D is in the download folder');
    const line = (await auditLines()).filter((l) => l.tool === 'download_file').at(-1);
    assert.equal(line?.outcome, 'denied', JSON.stringify(line));
    assert.match(line.detail, new RegExp(`/download/${file}`), 'the audit line names the final URL');
    return line;
  };

  it('download_file {url} that redirects to D is denied, and nothing is kept', async (t) => {
    await env.open('/attack-download.html', { t });
    const r = await s.call('download_file', { url: env.web.url(`/redirect?to=${env.web.localhostOrigin}/download/d-by-url.bin`) });
    await assertDenied(r, 'd-by-url.bin');
  });

  it('download_file {selector} of a same-site link that redirects to D is denied', async (t) => {
    await env.open('/attack-download.html', { t });
    const r = await s.call('download_file', { selector: '#report' });
    const line = await assertDenied(r, 'd-by-link.bin');
    assert.match(line.detail, /link http:\/\/127\.0\.0\.1:\d+\/redirect/, 'the audit line names the link');
  });

  it('a redirect within the allowed site still downloads', async (t) => {
    await env.open('/attack-download.html', { t });
    const r = await s.pageOk('download_file', { url: env.web.url('/redirect?to=/download/a-same-site.bin') });
    assert.match(allText(r), /downloaded \d+ bytes/);
    assert.equal(r._meta?.['tabbridge/wentTo'], undefined, 'the audit note is not the model\'s');
  });
});

// ---- end of section 2 -------------------------------------------------------


// ==== 4. a page aims trusted typing and clicks; form tools' names ==========

// An A page that frames D and forges a form tool aimed at the frame (issue
// 17, finding 4). Before the fix it was listed as "check_balance" (no
// webmcp_ mark, read-only) and calling it made a trusted click on D's
// "Transfer" button. Now forms are found and aimed in our isolated world
// only; whatever the page's world lists is a WebMCP tool the page runs.
describe('attack: page-aimed input', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startDenyingD(h, 'attack-input');
  });

  it('a forged form tool cannot aim trusted input into a denied frame', async (t) => {
    const tab = await env.open('/attack-input.html', { t });
    assert.equal(await tab.frameEval('attack-input-bank', 'window.trustedClicks'), 0, 'precondition: D framed, no clicks');
    const forged = await waitFor(async () => (await listTools(env.s)).find((x) => x.name.includes('check_balance')),
      { what: 'the forged tool in tools/list' });
    await env.s.call(forged.name, {});
    assert.equal(await tab.frameEval('attack-input-bank', 'window.trustedClicks'), 0, 'trusted input reached the denied frame');
    assert.match(forged.name, /^webmcp_/, `the page's tool is listed like one of ours: ${forged.name}`);
    assert.notEqual(forged.annotations?.readOnlyHint, true, "the page's word read-only became ours");
  });

  it('the page cannot add a tool source to the registry it can reach', async (t) => {
    const tab = await env.open('/attack-input.html', { t });
    assert.equal(await tab.eval("typeof window[Symbol.for('tabbridge.owntools.v1')].addSource"), 'undefined');
    assert.equal(await tab.eval("typeof window[Symbol.for('tabbridge.owntools.v1')].describe"), 'undefined');
  });
});

// A frame of D on A's page: its text is shown only where the policy lets the
// session read D (issue 42 item 1: a frame D may not be read is a line saying
// so, tests/e2e/attacks_provenance); input into it is decided for D.
describe('attack: page-aimed input into a frame of a site the session may read but not act on', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startDenyingD(h, 'attack-input-act', { rules: DENY_D_ACT });
  });

  it('a click on a ref inside a frame of a denied site is denied, and no trusted click lands there', async (t) => {
    const tab = await env.open('/attack-input-frame.html', { t });
    await tab.frameEval('attack-input-bank', 'window.trustedClicks');
    const snap = await waitFor(async () => {
      const [text] = await env.snapshot();
      return /Transfer all funds/.test(text) ? text : null;
    }, { what: "the D frame's button in the snapshot" });
    const ref = refOf(snap, el('button', 'Transfer all funds'));
    const r = await env.s.call('click', { ref });
    assert.equal(await tab.frameEval('attack-input-bank', 'window.trustedClicks'), 0, 'a trusted click landed in the denied frame');
    assert.equal(r.isError, true, allText(r));
    assert.match(allText(r), /frame of http:\/\/localhost:\d+: click denied on localhost/);
    assert.equal(r.structuredContent?.denied?.rule, 1);
  });
});

// ---- end of section 4 -------------------------------------------------------


// ==== medium: page text, untrusted marks, console forgery, secrets ==========

// What a page's own tool answers, and what list_webmcp_tools shows of it,
// reached the model unmarked before the fix: the page's words as if ours.
describe('attack: page text and console', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startPageBrowser(h, { name: 'attack-page-text' });
  });

  it("a page tool's answer and list_webmcp_tools are marked untrusted", async (t) => {
    await env.open('/webmcp-todo-polyfill.html', { t });
    const tool = await waitFor(async () => (await listTools(env.s)).find((x) => /^webmcp_.*add/.test(x.name)),
      { what: "the page's add tool" });
    const r = await env.s.call(tool.name, { text: 'milk' });
    assert.match(r.content.at(-1).text, /untrusted page text/, JSON.stringify(r));
    const list = await env.s.callOk('list_webmcp_tools');
    assert.match(list.untrusted ?? '', /the page's own words/);
  });

  // A page chose names like other servers' tools for its forms
  // (take_screenshot): before the fix they were listed as is.
  it("the page's forms carry a mark whatever the page calls them", async (t) => {
    await env.open('/attack-names.html', { t });
    const names = await waitFor(async () => {
      const own = ownOf(await listTools(env.s)).map((x) => x.name);
      return own.length === 2 ? own.sort() : null;
    }, { what: 'both forms in tools/list' });
    assert.equal(names[0], 'form_click', `a form named by its button: ${names}`);
    assert.match(names[1], /^webmcp_.*_take_screenshot$/, 'a declarative form named by its toolname');
  });

  // A page whose tools change every 150 ms (20 times, ~3 s) sent the session
  // a list_changed for each (~20). Now: the first at once, then at most one a
  // second — and the last list is the one that stays.
  it('a page changing its tools in a loop does not flood the session', async (t) => {
    const before = env.s.listChanged;
    const tab = await env.open('/attack-flood.html', { t });
    const cdp = await CdpConnection.open(tab.wsUrl);
    try {
      await cdp.send('Page.bringToFront');
    } finally {
      cdp.close();
    }
    await tab.eval('window.startFlood()');
    await tab.waitEval('window.floodDone === true', 'the page to stop');
    await waitFor(async () => (await listTools(env.s)).some((x) => x.name.endsWith('tick19')), { what: 'the last list' });
    const sent = env.s.listChanged - before;
    assert.ok(sent <= 7, `${sent} list_changed for 20 changes in ~3 s (and opening the tab)`);
  });

  // A third-party frame wrote console entries claiming the top page's URL,
  // an error level and a time of its choosing: console_logs showed them as
  // the page's. Entries now carry the frame the browser says they came from.
  it("a frame cannot write console entries in the page's name", async (t) => {
    env.web.vars.DENIED_ORIGIN = env.web.localhostOrigin;
    env.web.vars.TOP_URL = encodeURIComponent(env.web.url('/attack-console.html'));
    const tab = await env.open('/attack-console.html', { t });
    await waitFor(() => tab.frameEval('attack-console-ad', 'window.forged === true'), { what: 'the frame to forge' });
    const logs = allText(await env.s.pageOk('console_logs', {}));
    assert.ok(!logs.includes('forged-entry-6612'), `console_logs shows the frame's entry as the page's: ${logs}`);
  });
});

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
    // The fields may be folded (fold.js): each read back in full.
    assert.match(unfold(text).join('\n'), /textbox "Card number"[^\n]*\[value="•+"\]/);
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

describe('attack: policy sites, audit, notifications', { timeout: 300_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startDenyingD(h, 'attack-host', { caps: 'eval' });
    s = env.s;
  });

  const auditLines = async () => {
    const text = await fsp.readFile(path.join(s.stateDir, 'tabbridge', 'audit.jsonl'), 'utf8').catch(() => '');
    return text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
  };

  // With localhost denied, another name of loopback reached the same server
  // (RFC 6761: *.localhost is loopback; Chrome resolves it so). Before the
  // fix open_tab opened it.
  it('a subdomain of a denied localhost is denied too', async () => {
    const port = new URL(env.web.localhostOrigin).port;
    const [result, text] = await s.pageErr('open_tab', { url: `http://app.localhost:${port}/a.html?alias` });
    assert.match(text, /^open_tab denied on app\.localhost:\d+: rule 1 /);
    assert.equal(result.structuredContent.denied.rule, 1);
    assert.ok(!(await devToolsPages(env.port)).some((p) => p.url.includes('?alias')), 'a tab was opened');
  });

  // docs/audit.md: no evaluated code, no page values, no selectors. Before
  // the fix an evaluate error and a click error carried them into the file.
  it('the audit log keeps no code, page value or selector of a failed call', async (t) => {
    const tab = await env.open('/a.html', { t });
    await tab.eval("window.pageSecret = 'page-value-7731'");
    const code = "(() => { const marker = 'code-marker-5519'; throw new Error(marker + window.pageSecret); })()";
    const e = await s.call('evaluate', { expression: code });
    assert.equal(e.isError, true, allText(e));
    const c = await s.call('click', { selector: '#selector-marker-2284' });
    assert.equal(c.isError, true, allText(c));
    const lines = await waitFor(async () => {
      const all = await auditLines();
      return all.some((l) => l.tool === 'click') && all.some((l) => l.tool === 'evaluate') ? all : null;
    }, { what: 'the audit lines of both calls' });
    const text = JSON.stringify(lines);
    for (const marker of ['code-marker-5519', 'page-value-7731', 'selector-marker-2284']) {
      assert.ok(!text.includes(marker), `the audit log holds ${marker}: ${text}`);
    }
    assert.deepEqual(lines.filter((l) => ['evaluate', 'click'].includes(l.tool)).map((l) => l.outcome), ['error', 'error']);
  });
});

// ---- end of section medium (host) -------------------------------------------
