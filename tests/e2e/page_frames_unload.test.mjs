// evaluate {allFrames} reaches every frame, the out-of-process one included;
// a beforeunload dialog holds a navigation until handle_dialog answers it.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { allText, bodyText, startPageBrowser } from './page_helpers.mjs';

describe('evaluate in all frames', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startPageBrowser(h, { name: 'allframes', caps: 'eval', peer: true });
  });

  it('answers one result per frame: the page, the same-origin and the cross-origin iframe', async (t) => {
    await env.open('/iframes.html', { t });
    const result = await env.s.pageOk('evaluate', { expression: 'location.origin + location.pathname', allFrames: true });
    const answer = result.structuredContent ?? JSON.parse(bodyText(result));
    const values = (answer.frames ?? answer.result?.frames ?? []).map((f) => f.result);
    assert.ok(values.includes(`${env.web.origin}/iframes.html`), `the page: ${JSON.stringify(values)}`);
    assert.ok(values.includes(`${env.web.origin}/frame-same.html`), `the same-origin frame: ${JSON.stringify(values)}`);
    assert.ok(values.includes(`${env.peer.localhostOrigin}/frame-cross.html`), `the cross-origin frame: ${JSON.stringify(values)}`);
  });
});

describe('beforeunload', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startPageBrowser(h, { name: 'unload' });
  });

  it('navigate away is held by the dialog and reported; handle_dialog accept lets it go on', async (t) => {
    const tab = await env.open('/unload.html', { t });
    await env.s.pageOk('type', { selector: '#draft', text: 'unsaved' }); // a real interaction arms beforeunload
    const held = await env.s.call('navigate', { url: env.web.url('/b.html') });
    assert.match(allText(held), /beforeunload/i, `navigate should report the dialog: ${allText(held)}`);
    // (DevTools cannot evaluate in the page while the dialog blocks it: ask list_tabs.)
    const { tabs, focusedTabId } = await env.s.listTabs();
    assert.match(tabs.find((x) => x.id === focusedTabId).url, /\/unload\.html/, 'the page stays while the dialog is open');
    await env.s.pageOk('handle_dialog', { accept: true });
    await tab.waitEval(`location.pathname === '/b.html'`, 'the navigation to go on after accepting');
  });
});
