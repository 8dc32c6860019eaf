// Date, time and colour inputs: a picker ignores typed text (Input.insertText),
// so fill_form and type set their value in the page (native setter, then input
// and change). The page's own state is read back through DevTools, and the
// submit reaches the fixture server; a value the browser refuses is an error
// naming the format the field takes.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';

const VALUES = `['depart', 'at', 'tint'].map((id) => document.getElementById(id).value).join(' ')`;

describe('picker inputs (date, time, color)', { timeout: 180_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'pickers' });
    s = env.s;
  });

  it('fill_form sets a date, a time and a color; the page sees them and the form submits', async (t) => {
    const tab = await env.open('/date-form.html', { t });
    const r = await s.pageOk('fill_form', {
      fields: [
        { selector: '#depart', value: '2026-12-24' },
        { selector: '#at', value: '14:30' },
        { selector: '#tint', value: '#FF8800' },
      ],
    });
    const text = r.content.map((c) => c.text).join('\n');
    assert.match(text, /"Depart" = "2026-12-24"/, text);
    assert.equal(await tab.eval(VALUES), '2026-12-24 14:30 #ff8800', 'the page holds the values');
    assert.equal(await tab.eval(`document.getElementById('log').textContent`), 'depart=2026-12-24;at=14:30;tint=#ff8800;',
      'the page saw a change event for each');
    assert.equal(await tab.eval(`document.getElementById('f').checkValidity()`), true);
    await s.pageOk('click', { selector: 'button[type=submit]' });
    await tab.waitEval(`location.pathname === '/search'`, 'the form to submit to /search');
    assert.equal(new URL(await tab.eval('location.href')).searchParams.get('depart'), '2026-12-24');
  });

  it('type into a date field sets it', async (t) => {
    const tab = await env.open('/date-form.html', { t });
    const r = await s.pageOk('type', { selector: '#depart', text: '2027-01-05', clear: true });
    assert.match(r.content[0].text, /2027-01-05/);
    assert.equal(await tab.eval(`document.getElementById('depart').value`), '2027-01-05');
  });

  it('a malformed date is an error naming the format, and the field keeps its value', async (t) => {
    const tab = await env.open('/date-form.html', { t });
    await s.pageOk('fill_form', { fields: [{ selector: '#depart', value: '2026-12-24' }] });
    const [, msg] = await s.pageErr('fill_form', { fields: [{ selector: '#depart', value: '24/12/2026' }] });
    assert.match(msg, /24\/12\/2026/, msg);
    assert.match(msg, /YYYY-MM-DD/, msg);
    assert.equal(await tab.eval(`document.getElementById('depart').value`), '2026-12-24', 'the old value stays');
    const [, tmsg] = await s.pageErr('type', { selector: '#at', text: '2:30pm' });
    assert.match(tmsg, /HH:MM/, tmsg);
    const [, cmsg] = await s.pageErr('fill_form', { fields: [{ selector: '#tint', value: 'orange' }] });
    assert.match(cmsg, /#rrggbb/, cmsg);
  });
});
