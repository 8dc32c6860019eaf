// drag {from, to} (--caps drag): an HTML5 drag and a pointer-events drag, in a background
// tab, asserted on where the page put the item; and the errors.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { allText, refOf, startPageBrowser } from './page_helpers.mjs';

describe('drag', { timeout: 150_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'drag', caps: 'drag' });
    s = env.s;
  });

  it('an HTML5 drag moves the file into the archive (dragstart and drop trusted)', async (t) => {
    const tab = await env.open('/drag.html', { t });
    const text = allText(await s.pageOk('drag', { from: '#f1', to: '#archive' }));
    assert.match(text, /dragged .*report\.pdf.* onto .*HTML5 drag and drop/);
    await tab.waitEval(`document.getElementById('f1').parentElement.id === 'archive'`, 'report.pdf in the archive');
    assert.deepEqual(await tab.eval('window.log'), ['dragstart f1 true', 'drop f1 true']);
  });

  it('a pointer-events drag moves the card to Done, by refs from snapshot', async (t) => {
    const tab = await env.open('/drag.html', { t });
    const [snap] = await env.snapshot();
    const card = refOf(snap, /draggable "Ship it"/); // cursor: grab makes it one to drag
    const text = allText(await s.pageOk('drag', { from: card, to: '#done' }));
    assert.match(text, /dragged .*Ship it.* onto .*pointer events/);
    await tab.waitEval(`document.getElementById('c2').parentElement.id === 'done'`, 'the card in Done');
    const log = await tab.eval('window.log');
    assert.equal(log.length, 1, JSON.stringify(log));
    assert.match(log[0], /^pointerup c2 moves=\d+ over=done$/);
  });

  it('a missing end is an error naming it, and nothing moves', async (t) => {
    const tab = await env.open('/drag.html', { t });
    const [, text] = await s.pageErr('drag', { from: '#c1', to: '#nowhere' });
    assert.match(text, /#nowhere/);
    assert.equal(await tab.eval(`document.getElementById('c1').parentElement.id`), 'todo');
  });
});
