// An action answers with the refs of what it brought (docs/page_tools.md,
// "appeared:"): a dialog's buttons, new rows — and the next click takes
// those refs without a snapshot in between. The page's own counters say
// which element the second click reached. A click also answers the text it
// changed and its target's new name and state (issue 41 item 5: `now says
// "Liked" (was "Like")`, `text changed: "12 likes" → "13 likes"`), bounded,
// and nothing more when nothing a person reads changed.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { bodyText, startPageBrowser } from './page_helpers.mjs';

// The ref an "appeared:" clause gives the element `label` (role "name").
function appearedRef(text, label) {
  const clause = /appeared: (.*)$/m.exec(text)?.[1];
  assert.ok(clause, `no "appeared:" in: ${text}`);
  const at = clause.indexOf(`${label} [ref=`);
  assert.ok(at >= 0, `${label} not among what appeared: ${clause}`);
  return /\[ref=(f?\d*e\d+)\]/.exec(clause.slice(at))[1];
}

describe('actions answer what they brought', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'appeared' });
    s = env.s;
  });

  it("a click that opens a dialog answers its buttons' refs, and clicking one of them works", async (t) => {
    const tab = await env.open('/appear.html', { t });
    const text = bodyText(await s.pageOk('click', { selector: '#delete' }));
    assert.match(text, /^clicked button "Delete"; text changed: new "Really\?"; appeared: dialog "Delete it\?" \[ref=e\d+\], button "Confirm" \[ref=e\d+\], button "Keep" \[ref=e\d+\]$/);
    const confirm = appearedRef(text, 'button "Confirm"');
    const second = bodyText(await s.pageOk('click', { ref: confirm }));
    assert.match(second, /^clicked button "Confirm"/);
    assert.equal(await tab.eval('window.confirmed'), 1, 'the page counted the click on Confirm');
    assert.doesNotMatch(second, /appeared:/, 'closing the dialog brings nothing');
  });

  it('rows added after a promise and a timer are told, at most 20 and how many more; a row\'s ref is clicked', async (t) => {
    const tab = await env.open('/appear.html', { t });
    const text = bodyText(await s.pageOk('click', { selector: '#add' }));
    assert.match(text, /appeared: button "Remove row 1" \[ref=e\d+\], .*button "Remove row 20" \[ref=e\d+\] and 5 more \(snapshot shows them\)$/);
    assert.doesNotMatch(text, /Remove row 21/);
    const third = appearedRef(text, 'button "Remove row 3"');
    await s.pageOk('click', { ref: third });
    assert.deepEqual(JSON.parse(await tab.eval('JSON.stringify(window.removed)')), [3]);
  });

  it('a click that changes only its own button brings nothing new: its new name, once', async (t) => {
    const tab = await env.open('/appear.html', { t });
    const text = bodyText(await s.pageOk('click', { selector: '#same' }));
    assert.equal(text, 'clicked button "Count 0"; now says "Count 1" (was "Count 0")');
    assert.equal(await tab.eval('document.getElementById("same").textContent'), 'Count 1');
  });

  // A change the click made at once is read at once; the fetch it started is
  // still waited for (effects.js): what its answer brings is in the answer,
  // every time — the request is seen before the effects are read.
  it('a click that says "Loading…" and fetches answers what the fetch brought, click after click', async (t) => {
    const tab = await env.open('/appear.html', { t });
    for (let round = 1; round <= 8; round++) {
      const text = bodyText(await s.pageOk('click', { selector: '#load' }));
      assert.match(text, new RegExp(`^clicked button "Load items"; appeared: button "Loaded ${round}\\.1" \\[ref=e\\d+\\], button "Loaded ${round}\\.2" \\[ref=e\\d+\\], button "Loaded ${round}\\.3" \\[ref=e\\d+\\]$`), `round ${round}`);
    }
    assert.equal(await tab.eval('window.loads'), 8);
  });

  it('a render put off to the next animation frame is told', async (t) => {
    await env.open('/appear.html', { t });
    const text = bodyText(await s.pageOk('click', { selector: '#frame' }));
    assert.match(text, /^clicked button "Draw later"; appeared: button "Drawn in a frame" \[ref=e\d+\]$/);
  });

  it('a like: its new name and state, the counter and the status line the click changed', async (t) => {
    const tab = await env.open('/like.html', { t });
    const text = bodyText(await s.pageOk('click', { selector: '#like' }));
    assert.equal(text, 'clicked button "Like"; now pressed; now says "Liked" (was "Like"); text changed: "12 likes" → "13 likes", new "Added to your favourites"');
    assert.equal(await tab.eval('window.likes'), 1);
    const again = bodyText(await s.pageOk('click', { selector: '#like' }));
    assert.equal(again, 'clicked button "Liked"; now not pressed; now says "Like" (was "Liked"); text changed: "13 likes" → "12 likes", "Added to your favourites" → "Removed from your favourites"');
  });

  it('a disclosure: now expanded, and the text it shows', async (t) => {
    await env.open('/like.html', { t });
    const text = bodyText(await s.pageOk('click', { selector: '#details' }));
    assert.equal(text, 'clicked button "Show details"; now expanded; text changed: new "Faster start, smaller bundle."');
  });

  it('a click that changes nothing a person reads (an attribute, a class) answers as before', async (t) => {
    const tab = await env.open('/like.html', { t });
    const text = bodyText(await s.pageOk('click', { selector: '#quiet' }));
    assert.equal(text, 'clicked button "Nothing to see"');
    assert.equal(await tab.eval('document.getElementById("quiet").dataset.clicked'), '1', 'the page got the click');
  });

  it('a click that rewrites the whole page: the text clause is capped, the rest counted', async (t) => {
    await env.open('/like.html', { t });
    const r = await s.pageOk('click', { selector: '#flood' });
    const text = bodyText(r);
    const clause = /text changed: .*$/.exec(text)?.[0] ?? '';
    assert.match(clause, /^text changed: "Paragraph 0: original words .*" → "Paragraph 0: rewritten words .*/, text);
    assert.match(clause, / and \d+ more \(snapshot shows them\)$/, text);
    assert.ok(clause.length <= 480, `${clause.length} characters: ${clause}`);
    assert.ok(Buffer.byteLength(JSON.stringify(r.content)) < 1024, `the whole answer: ${JSON.stringify(r.content)}`);
  });
});
