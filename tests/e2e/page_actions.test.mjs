// Actions on the focused tab — click, type, fill_form, select_option, hover,
// scroll, press_key — by ref (from snapshot) and by selector, in the main
// document, a same-origin iframe, a cross-site (out-of-process) iframe and an
// open shadow root. Every test reads the page's own state back through
// DevTools (or the fixture server's record of requests), never the tool's claim.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { LOGIN, useHarness, waitFor } from './harness.mjs';
import { el, refOf, startPageBrowser } from './page_helpers.mjs';

const SAME_DOC = `document.getElementById('same').contentDocument`;
const SHADOW = `document.getElementById('widget').shadowRoot`;

describe('page actions', { timeout: 240_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'actions', peer: true });
    s = env.s;
  });

  const loginPosts = (password) => env.web.requests.filter((r) => r.method === 'POST' && r.path === '/login' && r.form?.password === password);

  describe('login form', () => {
    it('fill_form (refs from snapshot) then click "Sign in" lands on the welcome page', async (t) => {
      const tab = await env.open('/login.html', { t });
      const [snap] = await env.snapshot();
      await s.pageOk('fill_form', {
        fields: [
          { ref: refOf(snap, el('textbox', 'Username')), value: LOGIN.user },
          { ref: refOf(snap, el('textbox', 'Password')), value: LOGIN.password },
        ],
      });
      await s.pageOk('click', { ref: refOf(snap, el('button', 'Sign in')) });
      await tab.waitEval(`location.pathname === '/welcome'`, 'the browser to reach /welcome');
      assert.equal(await tab.eval('document.title'), 'Welcome');
      assert.equal(await tab.eval(`document.getElementById('welcome').textContent`), `Welcome, ${LOGIN.user}!`);
      assert.equal(loginPosts(LOGIN.password).at(-1)?.form.user, LOGIN.user, 'the server received the credentials');
    });

    it('type into the fields (selectors), submit:true on the password, logs in', async (t) => {
      const tab = await env.open('/login.html', { t });
      await s.pageOk('type', { selector: '#user', text: LOGIN.user });
      await s.pageOk('type', { selector: '#password', text: LOGIN.password, submit: true });
      await tab.waitEval(`location.pathname === '/welcome'`, 'the browser to reach /welcome');
      assert.equal(await tab.eval(`document.getElementById('welcome').textContent`), `Welcome, ${LOGIN.user}!`);
    });

    it('a wrong password shows the error text and stays on the sign-in page', async (t) => {
      const tab = await env.open('/login.html', { t });
      await s.pageOk('fill_form', {
        fields: [
          { selector: '#user', value: LOGIN.user },
          { selector: '#password', value: 'wrong-password-1' },
        ],
      });
      await s.pageOk('click', { selector: '#signin' });
      await tab.waitEval(`new URLSearchParams(location.search).get('error') === '1' && document.readyState === 'complete'`, 'the redirect back to /login.html?error=1');
      assert.equal(await tab.eval('location.pathname'), '/login.html');
      assert.equal(await tab.eval(`document.getElementById('error').textContent`), 'Wrong username or password.');
      assert.equal(loginPosts('wrong-password-1').length, 1, 'the wrong password was posted once');
    });

    it('submitting empty fields shows the validation error and posts nothing', async (t) => {
      const tab = await env.open('/login.html', { t });
      const before = env.web.requests.filter((r) => r.method === 'POST').length;
      await s.pageOk('click', { selector: '#signin' });
      await tab.waitEval(`document.getElementById('error').textContent === 'Enter your username and password.'`, 'the validation error');
      assert.equal(await tab.eval('location.pathname + location.search.includes("error")'), '/login.htmlfalse');
      assert.equal(env.web.requests.filter((r) => r.method === 'POST').length, before, 'no POST reached the server');
    });
  });

  describe('frames and shadow DOM', () => {
    const openFrames = async (t) => {
      const tab = await env.open('/iframes.html', { t });
      await tab.frameEval('frame-cross', `document.readyState === 'complete'`);
      await tab.waitEval(`${SAME_DOC}?.readyState === 'complete'`, 'the same-origin frame to load');
      const [snap] = await env.snapshot();
      return [tab, snap];
    };

    it('click (ref) in the cross-origin iframe increments its counter', async (t) => {
      const [tab, snap] = await openFrames(t);
      await s.pageOk('click', { ref: refOf(snap, el('button', 'Cross +1')) });
      assert.equal(await waitFrame(tab, `document.getElementById('count').textContent`, '1'), '1');
      assert.equal(await tab.eval(`document.getElementById('main-count').textContent`), '0', 'the main document is untouched');
    });

    it('type (ref) in the cross-origin iframe fills its field and fires input events', async (t) => {
      const [tab, snap] = await openFrames(t);
      await s.pageOk('type', { ref: refOf(snap, el('textbox', 'Cross field')), text: 'hello cross' });
      assert.equal(await waitFrame(tab, `document.getElementById('field').value`, 'hello cross'), 'hello cross');
      assert.equal(await tab.frameEval('frame-cross', `document.getElementById('echo').textContent`), 'hello cross');
    });

    it('click (ref) in the same-origin iframe increments its counter', async (t) => {
      const [tab, snap] = await openFrames(t);
      await s.pageOk('click', { ref: refOf(snap, el('button', 'Same +1')) });
      await tab.waitEval(`${SAME_DOC}.getElementById('count').textContent === '1'`, 'the same-origin frame counter to read 1');
    });

    it('click (ref) in the open shadow root increments its counter', async (t) => {
      const [tab, snap] = await openFrames(t);
      await s.pageOk('click', { ref: refOf(snap, el('button', 'Shadow +1')) });
      await tab.waitEval(`${SHADOW}.getElementById('count').textContent === '1'`, 'the shadow counter to read 1');
    });

    it('type (ref) in the open shadow root fills its field and fires input events', async (t) => {
      const [tab, snap] = await openFrames(t);
      await s.pageOk('type', { ref: refOf(snap, el('textbox', 'Shadow field')), text: 'hello shadow' });
      await tab.waitEval(`${SHADOW}.getElementById('field').value === 'hello shadow'`, 'the shadow field value');
      assert.equal(await tab.eval(`${SHADOW}.getElementById('echo').textContent`), 'hello shadow');
    });
  });

  // run_steps: the login in one call; each step is the tool's own call.
  describe('run_steps', () => {
    it('types both fields and clicks Sign in in one call, landing on the welcome page', async (t) => {
      const tab = await env.open('/login.html', { t });
      const r = await s.pageOk('run_steps', {
        steps: [
          { tool: 'type', arguments: { selector: '#user', text: LOGIN.user } },
          { tool: 'type', arguments: { selector: '#password', text: LOGIN.password } },
          { tool: 'click', arguments: { selector: 'button[type=submit]' } },
        ],
      });
      assert.deepEqual(r.structuredContent, { steps: [{ tool: 'type', isError: false }, { tool: 'type', isError: false }, { tool: 'click', isError: false }], ran: 3, of: 3 });
      assert.match(r.content[2].text, /^\[3\] click: clicked button "Sign in"/);
      await tab.waitEval(`location.pathname === '/welcome'`, 'the browser to reach /welcome');
      assert.equal(loginPosts(LOGIN.password).at(-1)?.form.user, LOGIN.user, 'the server received both fields');
    });

    it('stops at a step that fails: the later steps do nothing to the page', async (t) => {
      const tab = await env.open('/login.html', { t });
      const [r, text] = await s.pageErr('run_steps', {
        steps: [
          { tool: 'type', arguments: { selector: '#user', text: 'first' } },
          { tool: 'click', arguments: { selector: '#no-such-button' } },
          { tool: 'type', arguments: { selector: '#password', text: 'never' } },
        ],
      });
      assert.equal(r.structuredContent.ran, 2);
      assert.match(text, /\[2\] click \(error\)/);
      assert.match(text, /steps 3–3 did not run/);
      assert.equal(await tab.eval(`document.getElementById('user').value`), 'first');
      assert.equal(await tab.eval(`document.getElementById('password').value`), '', 'the step after the error ran');
    });
  });

  describe('controls', () => {
    it('click by CSS selector', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await s.pageOk('click', { selector: '#plus' });
      await tab.waitEval(`document.getElementById('count').textContent === '1'`, 'count 1');
    });

    it('click by ref on the bench fixture submits its form', async (t) => {
      const tab = await env.open('/', { t });
      const [snap] = await env.snapshot();
      await s.pageOk('click', { ref: refOf(snap, el('button', 'Submit')) });
      await tab.waitEval(`document.getElementById('status').textContent === 'submitted 1'`, '"submitted 1"');
    });

    it('click doubleClick fires one dblclick', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await s.pageOk('click', { selector: '#dbl', doubleClick: true });
      await tab.waitEval(`document.getElementById('dbl-count').textContent === '1'`, 'one dblclick');
    });

    it('hover moves the mouse over the element (mouseenter fires)', async (t) => {
      const tab = await env.open('/controls.html', { t });
      // The hover target is a plain span: by selector (snapshots need not list it).
      await s.pageOk('hover', { selector: '#hover-target' });
      await tab.waitEval(`document.getElementById('hover-state').textContent === 'hovered'`, '"hovered"');
    });

    it('select_option by value', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await s.pageOk('select_option', { selector: '#color', values: ['b'] });
      await tab.waitEval(`document.getElementById('color').value === 'b'`, 'color b');
    });

    it('select_option by label (ref from snapshot)', async (t) => {
      const tab = await env.open('/controls.html', { t });
      const [snap] = await env.snapshot();
      await s.pageOk('select_option', { ref: refOf(snap, el('combobox|listbox', 'Color')), values: ['Green'] });
      await tab.waitEval(`document.getElementById('color').value === 'g'`, 'color g (label Green)');
    });

    it('select_option with several values on a multiple select', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await s.pageOk('select_option', { selector: '#toppings', values: ['olive', 'onion'] });
      await tab.waitEval(
        `[...document.getElementById('toppings').selectedOptions].map((o) => o.value).join() === 'olive,onion'`,
        'olive and onion selected',
      );
    });

    it('fill_form sets a text field, a checkbox, a radio and a select at once', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await s.pageOk('fill_form', {
        fields: [
          { selector: '#note', value: 'filled note' },
          { selector: '#agree', value: true },
          { selector: '#size-l', value: true },
          { selector: '#fruit', value: 'Cherry' },
        ],
      });
      const state = await tab.eval(`(() => {
        const $ = (id) => document.getElementById(id);
        return { note: $('note').value, agree: $('agree').checked, large: $('size-l').checked, small: $('size-s').checked, fruit: $('fruit').value };
      })()`);
      assert.deepEqual(state, { note: 'filled note', agree: true, large: true, small: false, fruit: 'Cherry' });
    });

    it('fill_form false unchecks a checked checkbox', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await tab.eval(`document.getElementById('agree').checked = true`);
      await s.pageOk('fill_form', { fields: [{ selector: '#agree', value: false }] });
      assert.equal(await tab.eval(`document.getElementById('agree').checked`), false);
    });

    it('type clear:true replaces the field text', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await tab.eval(`document.getElementById('note').value = 'old text'`);
      await s.pageOk('type', { selector: '#note', text: 'new text', clear: true });
      assert.equal(await tab.eval(`document.getElementById('note').value`), 'new text');
    });

    it('type submit:true presses Enter after the text', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await s.pageOk('type', { selector: '#note', text: 'abc', submit: true });
      await tab.waitEval(`document.getElementById('enter-state').textContent === 'enter pressed with note=abc'`, 'Enter after the text');
    });

    it('press_key Escape reaches the focused field', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await s.pageOk('click', { selector: '#keys' });
      await s.pageOk('press_key', { key: 'Escape' });
      await tab.waitEval(`document.getElementById('last-key').textContent === 'Escape'`, 'last key Escape');
    });

    it('press_key Control+A sends the chord (ctrlKey with a)', async (t) => {
      const tab = await env.open('/controls.html', { t });
      await s.pageOk('click', { selector: '#keys' });
      await s.pageOk('press_key', { key: 'Control+A' });
      await tab.waitEval(`/^Control\\+a$/i.test(document.getElementById('last-key').textContent)`, 'last key Control+a');
    });

    it('scroll dy scrolls the page by that many pixels', async (t) => {
      const tab = await env.open('/controls.html', { t });
      assert.equal(await tab.eval('scrollY'), 0);
      await s.pageOk('scroll', { dy: 600 });
      await tab.waitEval(`Math.abs(scrollY - 600) <= 10`, 'scrollY ≈ 600');
    });

    it('scroll to a ref brings the element into the viewport', async (t) => {
      const tab = await env.open('/controls.html', { t });
      const inView = `(() => { const r = document.getElementById('far').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()`;
      assert.equal(await tab.eval(inView), false, 'precondition: #far starts below the fold');
      const [snap] = await env.snapshot();
      await s.pageOk('scroll', { ref: refOf(snap, el('button', 'Far button')) });
      await tab.waitEval(inView, '#far inside the viewport');
    });
  });

  it('type 3 MB of text into a textarea (host→extension message over 1 MiB): all of it arrives', async (t) => {
    const tab = await env.open('/controls.html', { t });
    const size = 3 * 1024 * 1024;
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 ';
    let seed = 12345;
    const chars = new Array(size);
    for (let i = 0; i < size; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      chars[i] = alphabet[(seed >>> 16) % alphabet.length];
    }
    const text = chars.join('');
    let hash = 0;
    for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
    await s.pageOk('type', { selector: '#big', text }, { timeoutMs: 120_000 });
    const [length, pageHash] = await tab.eval(`(() => {
      const v = document.getElementById('big').value;
      let h = 0;
      for (let i = 0; i < v.length; i++) h = (h * 31 + v.charCodeAt(i)) >>> 0;
      return [v.length, h];
    })()`);
    assert.equal(length, size, 'textarea length');
    assert.equal(pageHash, hash, 'textarea content (hash) equals what was typed');
  });
});

/** Polls an expression in the cross-origin frame until it equals `want`; returns it. */
function waitFrame(tab, expression, want) {
  return waitFor(async () => {
    const v = await tab.frameEval('frame-cross', expression);
    return v === want ? v : null;
  }, { what: `cross-origin frame: ${expression} === ${JSON.stringify(want)}` });
}
