// snapshot and the focused tab's tool list: sizes (context economy), refs on
// every interactive element, frames (same-origin, cross-site out of process),
// open shadow roots, pagination with a cursor.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { CORE_TOOLS, TOOLS_FOCUSED_CORE, assertToolSet, useHarness } from './harness.mjs';
import { unfold } from '../../extension/tools/shared/snapshot_unfold.js';
import { PAGE_TOOLS_DEFAULT, bodyText, el, nextCursor, refOf, refsIn, startPageBrowser, textBytes } from './page_helpers.mjs';

const BENCH_FIELDS = [el('textbox', 'Name'), el('textbox', 'Email'), el('spinbutton|textbox', 'Age')];
const benchLink = (n) => el('link', `Link number ${n}`);

describe('snapshot and tools/list', { timeout: 150_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startPageBrowser(h, { name: 'snapshot', peer: true });
  });

  it('page text that spells a ref token ("[ref=e1]") does not read as one: only the elements carry refs', async (t) => {
    await env.open('/forged-refs.html', { t });
    const text = bodyText(await env.s.pageOk('snapshot', {}));
    const tokens = text.match(/\[ref=[^\]]*\]/g) ?? [];
    assert.equal(tokens.length, 2, `ref tokens: ${JSON.stringify(tokens)} in\n${text}`);  // the button and the link
    assert.match(text, /press \(ref=e1\] now/);
    assert.match(text, /button "Delete account" \[ref=e\d+\]/);
  });

  it('a focused tab with default caps lists the core tools and the 15 default page tools, not evaluate/download_file', async (t) => {
    await env.open('/', { t });
    const names = await env.s.toolNames();
    const core = names.filter((n) => CORE_TOOLS.includes(n));
    assertToolSet(core, TOOLS_FOCUSED_CORE);
    for (const n of PAGE_TOOLS_DEFAULT) assert.ok(names.includes(n), `page tool ${n} missing from ${names}`);
    assert.ok(!names.includes('evaluate'), 'evaluate needs --caps eval');
    assert.ok(!names.includes('download_file'), 'download_file needs --caps download');
  });

  // The generic list is paid on every turn and stays under 6000 bytes; the
  // page's own tools (here: the fixture's form) come on top, within their
  // per-page budget (24 tools, 12 KiB: kMaxListedOwnTools/-Bytes).
  it('tools/list of a focused tab (bench fixture, default caps): generic part under 6000 bytes, own tools within budget', async (t) => {
    await env.open('/', { t });
    const { tools } = await env.s.client.listTools();
    const own = tools.filter((x) => /^\[(WebMCP|Form|Results|Button) • /.test(x.description ?? ''));
    const generic = tools.filter((x) => !own.includes(x));
    // What the model is shown: name, description, schema (annotations and _meta steer the client).
    const bytes = (list) => Buffer.byteLength(JSON.stringify(list.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))), 'utf8');
    t.diagnostic(`tools/list: ${generic.length} generic tools, ${bytes(generic)} bytes; ${own.length} own tools, ${bytes(own)} bytes`);
    assert.ok(generic.some((x) => x.name === 'snapshot'), 'page tools are listed');
    assert.ok(bytes(generic) < 6000, `the generic tools/list is ${bytes(generic)} bytes (limit 6000)`);
    assert.ok(own.length <= 24, `${own.length} own tools listed (limit 24)`);
    assert.ok(bytes(own) <= 12 * 1024, `own tools take ${bytes(own)} bytes (limit 12 KiB)`);
  });

  it('read_page mode html is not offered without --caps html', async (t) => {
    await env.open('/', { t });
    const { tools } = await env.s.client.listTools();
    const readPage = tools.find((x) => x.name === 'read_page');
    assert.ok(readPage, 'read_page listed');
    assert.ok(!readPage.inputSchema.properties.mode.enum.includes('html'), JSON.stringify(readPage.inputSchema));
  });

  it('the snapshot of the bench fixture is under 1500 bytes of text', async (t) => {
    await env.open('/', { t });
    const [, r] = await env.snapshot();
    const bytes = textBytes(r);
    t.diagnostic(`snapshot text: ${bytes} bytes`);
    assert.ok(bytes > 0, 'the snapshot has text');
    assert.ok(bytes < 1500, `snapshot text is ${bytes} bytes (limit 1500)`);
  });

  it('the bench fixture snapshot gives each of its 24 interactive elements a distinct ref', async (t) => {
    await env.open('/', { t });
    const [snap] = await env.snapshot();
    const refs = [
      ...BENCH_FIELDS.map((re) => refOf(snap, re)),
      refOf(snap, el('button', 'Submit')),
      ...Array.from({ length: 20 }, (_, i) => refOf(snap, benchLink(i + 1))),
    ];
    assert.equal(new Set(refs).size, 24, `refs must be distinct: ${refs}`);
  });

  it('the snapshot shows the page title/heading and the status text', async (t) => {
    await env.open('/', { t });
    const [snap] = await env.snapshot();
    assert.match(snap, /MCP Bench Fixture/);
    assert.match(snap, /not submitted/);
  });

  it('the snapshot reflects the DOM as it is now (a change made by the page shows)', async (t) => {
    const tab = await env.open('/', { t });
    await tab.eval(`document.getElementById('status').textContent = 'changed by the page 7731'`);
    const [snap] = await env.snapshot();
    assert.match(snap, /changed by the page 7731/);
  });

  describe('frames and shadow DOM', () => {
    let snap;

    before(async () => {
      const tab = await env.open('/iframes.html');
      // Preconditions of the fixture: the cross-origin frame really is out of process, and loaded.
      await tab.frameTarget(`${env.peer.localhostOrigin}/frame-cross.html`);
      await tab.frameEval('frame-cross', `document.readyState === 'complete'`);
      await tab.waitEval(`document.getElementById('same').contentDocument?.readyState === 'complete'`);
      [snap] = await env.snapshot();
    });

    it('shows the main document button with a ref', () => {
      refOf(snap, el('button', 'Main +1'));
    });

    it('shows the same-origin iframe button and field with refs', () => {
      refOf(snap, el('button', 'Same +1'));
      refOf(snap, el('textbox', 'Same field'));
    });

    it('shows the cross-origin (out-of-process) iframe button and field with refs', () => {
      refOf(snap, el('button', 'Cross +1'));
      refOf(snap, el('textbox', 'Cross field'));
    });

    it('shows the open shadow root button and field with refs', () => {
      refOf(snap, el('button', 'Shadow +1'));
      refOf(snap, el('textbox', 'Shadow field'));
    });

    it('gives distinct refs to the look-alike elements of the frames and the shadow root', () => {
      const refs = ['Main +1', 'Same +1', 'Cross +1', 'Shadow +1'].map((name) => refOf(snap, el('button', name)));
      assert.equal(new Set(refs).size, 4, `refs: ${refs}`);
    });
  });

  it('a control named by aria-label shows its own text on its line, not as a text line of its own', async (t) => {
    await env.open('/labelled-buttons.html', { t });
    const [text] = await env.snapshot();
    assert.match(text, /^- button "Remove authorization" \[ref=e\d+\] shows "Logout"$/m);
    assert.match(text, /^- button "Save" \[ref=e\d+\]$/m);
    assert.doesNotMatch(text, /text: (Logout|Save)/);
    // More than text inside: the text and the inner control keep their own lines.
    assert.match(text, /^- button "Open order A-101" \[ref=e\d+\]\n- text: Order A-101\n- button "Details" \[ref=e\d+\]$/m);
  });

  it('a long page comes back across pages with maxChars + cursor, every element with a ref, no duplicates', async (t) => {
    await env.open('/long-list.html', { t });
    const seen = new Map(); // item number -> ref
    let cursor;
    let pages = 0;
    do {
      const r = await env.s.pageOk('snapshot', cursor ? { maxChars: 2000, cursor } : { maxChars: 2000 });
      pages++;
      const text = bodyText(r);
      for (const line of unfold(text)) { // a page that starts inside a folded run repeats its header and template
        const m = /Item (\d{3})/.exec(line);
        const ref = refsIn(line)[0];
        if (m && ref) {
          assert.ok(!seen.has(m[1]) || seen.get(m[1]) === ref, `Item ${m[1]} came back twice with different refs`);
          seen.set(m[1], ref);
        }
      }
      cursor = nextCursor(r);
      assert.ok(pages <= 60, 'more than 60 pages: the cursor does not advance');
    } while (cursor);
    t.diagnostic(`${pages} pages`);
    assert.ok(pages > 1, 'a 300-button page at maxChars 2000 needs more than one page (and a cursor)');
    const missing = Array.from({ length: 300 }, (_, i) => String(i + 1).padStart(3, '0')).filter((n) => !seen.has(n));
    assert.deepEqual(missing, [], `items never seen with a ref: ${missing.slice(0, 20)}`);
    assert.equal(new Set(seen.values()).size, 300, 'refs are distinct');
  });

  describe('repeated structure told once (folded runs)', () => {
    const ITEM = /^ {2}(e\d+): (\d+)\|(open|packed|shipped)$/;

    it('40 rows of one shape: a template, then one line per row with its ref and values; the whole page far smaller', async (t) => {
      await env.open('/folded-rows.html', { t });
      const [text] = await env.snapshot();
      assert.match(text, /^\(folded: "- N items like:"/m, 'the head says how to read a folded run');
      assert.match(text, /^- 40 items like \[ref=e\d+\]:\n {2}- text: Order \{1\} · \{2\}\n {2}- button "Cancel order \{1\}" \[ref\]$/m);
      const items = text.split('\n').filter((l) => ITEM.test(l));
      assert.equal(items.length, 40, text);
      assert.deepEqual(items.slice(0, 2).map((l) => ITEM.exec(l).slice(2)), [['1', 'packed'], ['2', 'shipped']]);
      assert.doesNotMatch(text, /Cancel order 7"/, 'no row is written out in full');
      const full = unfold(text);
      assert.ok(full.includes('- text: Order 7 · packed'), 'it reads back as the rows it stands for');
      assert.equal(new Set(refsIn(text)).size, 40, 'every button has its own ref');
      assert.ok(text.length < full.join('\n').length * 0.6, `${text.length} bytes folded, ${full.join('\n').length} in full`);
    });

    it('a ref from a folded row clicks exactly that row\'s button', async (t) => {
      const tab = await env.open('/folded-rows.html', { t });
      const [text] = await env.snapshot();
      const ref = text.split('\n').map((l) => ITEM.exec(l)).find((m) => m && m[2] === '27')[1];
      await env.s.pageOk('click', { ref });
      await tab.waitEval('window.hits[27] === 1', 'the click on row 27\'s button');
      assert.equal(await tab.eval('JSON.stringify(window.hits)'), '{"27":1}', 'only row 27 was clicked');
    });

    // Four controls an operation, their refs one after another: a row says
    // them as a range (e5-8 is e5 e6 e7 e8), and the third of a range is the
    // third [ref] of the template.
    it('an item\'s refs that follow on are a range; the third ref of a range clicks the third control', async (t) => {
      const tab = await env.open('/folded-cards.html', { t });
      const [text] = await env.snapshot();
      assert.match(text, /e5-8 is e5 e6 e7 e8/, 'the head says how to read a range');
      const RANGE = /^ {2}e(\d+)-(\d+): (GET|POST|PATCH|DELETE|PUT)\|/;
      const rows = text.split('\n').map((l) => RANGE.exec(l)).filter(Boolean);
      assert.equal(rows.length, 10, text);
      for (const [, from, to] of rows) assert.equal(Number(to) - Number(from), 3, 'four refs a row');
      const seventh = rows[6];
      await env.s.pageOk('click', { ref: `e${Number(seventh[1]) + 2}` });
      await tab.waitEval('window.hits["7:try"] === 1', 'the click on operation 7\'s third control');
      assert.equal(await tab.eval('JSON.stringify(window.hits)'), '{"7:try":1}', 'only that control was clicked');
      assert.ok(unfold(text).includes(`- button "Try delete /gists/{id}" [ref=e${Number(seventh[1]) + 2}]`), 'unfold reads the range back');
    });

    it('read_page {ref} reads one row: the folded item a ref of it lies in', async (t) => {
      await env.open('/folded-rows.html', { t });
      const [text] = await env.snapshot();
      const ref = text.split('\n').map((l) => ITEM.exec(l)).find((m) => m && m[2] === '12')[1];
      const r = await env.s.pageOk('read_page', { ref, mode: 'text' });
      assert.equal(bodyText(r).trim(), 'Order 12 · open Cancel order 12');
      assert.equal(r.structuredContent.ref, ref);
      const bad = await env.s.call('read_page', { ref: 'e99999' });
      assert.equal(bad.isError, true, 'a ref no snapshot gave is refused');
      const both = await env.s.call('read_page', { ref, selector: 'li' });
      assert.equal(both.isError, true, 'ref and selector together are refused');
    });

    it('snapshot {ref} shows a region in full: one row by a ref in it, the whole list by the ref on its header', async (t) => {
      await env.open('/folded-rows.html', { t });
      const [text] = await env.snapshot();
      const rowRef = text.split('\n').map((l) => ITEM.exec(l)).find((m) => m && m[2] === '5')[1];
      const [one] = await env.snapshot({ ref: rowRef });
      assert.match(one, new RegExp(`^region: ${rowRef} in full`, 'm'));
      assert.match(one, new RegExp(`^- text: Order 5 · shipped\\n- button "Cancel order 5" \\[ref=${rowRef}\\]$`, 'm'));
      assert.doesNotMatch(one, /Order 6|items like|End of the orders/);
      const listRef = /^- 40 items like \[ref=(e\d+)\]:$/m.exec(text)[1];
      const [all] = await env.snapshot({ ref: listRef });
      assert.doesNotMatch(all, /items like/, 'nothing folded');
      assert.equal(all.split('\n').filter((l) => /^- button "Cancel order \d+" \[ref=e\d+\]$/.test(l)).length, 40);
      assert.match(all, new RegExp(`- button "Cancel order 5" \\[ref=${rowRef}\\]`), 'the same refs');
    });
  });
});
