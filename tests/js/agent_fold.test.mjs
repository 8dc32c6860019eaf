// extension/page/agent/fold.js: a run of siblings of one shape told once
// (a template, then a line per item with its refs and what varies), and
// extension/tools/shared/snapshot_unfold.js reading it back; the overview
// keeps a run's template with its header.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { loadAgent } from './page_agent_vm.mjs';
import { unfold, splitValues, parseItem } from '../../extension/tools/shared/snapshot_unfold.js';
import { withPrefix } from '../../extension/tools/shared/frame_refs.js';
import { overview } from '../../extension/tools/shared/snapshot_overview.js';

const agentFold = loadAgent().agent.fold;
const plain = (x) => JSON.parse(JSON.stringify(x)); // the agent's realm -> this one's
const { parse, FOLD_MIN } = agentFold;
const slotTemplate = (values) => plain(agentFold.slotTemplate(values));

const STATUS = ['open', 'packed', 'shipped'];
const row = (i, pad = '') => ({ lines: [`${pad}- text: Order ${i} · ${STATUS[i % 3]}`, `${pad}- button "Cancel order ${i}" [ref=e${100 + i}]`] });
const rows = (n, pad = '') => Array.from({ length: n }, (_, i) => row(i + 1, pad));
const fold = (segs, pad = '') => plain(agentFold.findRuns(segs, pad, () => 'e9'));

describe('fold: runs of one shape', () => {
  it('tells 20 rows once: a template with {n} where they differ (one number for equal columns), then each row\'s ref and values', () => {
    const runs = fold(rows(20));
    assert.equal(runs.length, 1);
    const { from, to, lines } = runs[0];
    assert.deepEqual([from, to], [0, 19]);
    assert.deepEqual(lines.slice(0, 5), [
      '- 20 items like [ref=e9]:',
      '  - text: Order {1} · {2}',
      '  - button "Cancel order {1}" [ref]',
      '  e101: 1|packed',
      '  e102: 2|shipped',
    ]);
    assert.equal(lines.length, 3 + 20);
    const before = rows(20).flatMap((s) => s.lines).join('\n').length;
    assert.ok(lines.join('\n').length < before / 2, `${lines.join('\n').length} bytes folded vs ${before}`);
  });

  it('reads back (unfold) to exactly the lines it stands for, indented ones too', () => {
    for (const pad of ['', '    ']) {
      const segs = rows(12, pad);
      const [{ lines }] = fold(segs, pad);
      assert.deepEqual(unfold(lines.join('\n')), segs.flatMap((s) => s.lines));
    }
  });

  it('keeps every element\'s ref: one per [ref] of the template, in order, on its item\'s line', () => {
    const segs = Array.from({ length: 8 }, (_, i) => ({ lines: [
      `- checkbox "Select ${i}" [ref=e${10 * i + 1}]`, `- link "Order ${i}" [ref=e${10 * i + 2}] /orders/${i}`,
    ] }));
    const [{ lines }] = fold(segs);
    assert.deepEqual(lines.slice(1, 4), ['  - checkbox "Select {1}" [ref]', '  - link "Order {1}" [ref] /orders/{1}', '  e1 e2: 0']);
    assert.deepEqual(unfold(lines.join('\n')), segs.flatMap((s) => s.lines));
  });

  it('folds items with and without a name as one shape (a card whose name was too long to show)', () => {
    const segs = Array.from({ length: 6 }, (_, i) => ({ lines: [
      i % 2 ? `- clickable "Card ${i}" [ref=e${i}0]` : `- clickable [ref=e${i}0]`, `- button "Buy ${i}" [ref=e${i}1]`,
    ] }));
    const runs = fold(segs);
    assert.equal(runs.length, 1);
    assert.deepEqual(unfold(runs[0].lines.join('\n')), segs.flatMap((s) => s.lines));
  });

  it('leaves short runs, and runs that gain little, as they are', () => {
    assert.equal(FOLD_MIN, 3);
    assert.deepEqual(fold(rows(FOLD_MIN - 1)), []);
    const said = ['alpha beta gamma delta', 'epsilon zeta eta theta', 'iota kappa lambda mu', 'nu xi omicron pi', 'rho sigma tau upsilon',
      'phi chi psi omega'];
    const unique = said.map((t) => ({ lines: [`- text: ${t}`] })); // nothing shared: "  : …" saves too little
    assert.deepEqual(fold(unique), []);
  });

  it('a child of another shape or one sharing a text line (null) ends a run; empty children are skipped over', () => {
    const segs = [...rows(6), { lines: ['- heading "Done" [level=2]'] }, ...rows(2), { lines: null }, ...rows(7)];
    segs.splice(2, 0, { lines: [] });
    const runs = fold(segs);
    assert.deepEqual(runs.map((r) => [r.from, r.to, r.members.length]), [[0, 6, 6], [11, 17, 7]]);
  });

  it('a frame placeholder or a fold\'s own lines do not fold again', () => {
    assert.equal(parse({ frameRef: 'e1' }), null);
    const framed = Array.from({ length: 4 }, () => ({ lines: [{ frameRef: 'e1', depth: 1, head: '- iframe:' }] }));
    assert.deepEqual(fold([...framed, ...rows(1)]), []);
    assert.equal(parse('- 20 items like [ref=e9]:'), null);
    assert.equal(parse('  e101: 1|packed'), null);
  });

  // A page writing "[ref]" into text every item shares would add a slot to
  // the template: the model, counting slots, would take "Delete"'s ref for "Keep"'s.
  it('page text that reads like the fold\'s marks ([ref], {1}) never folds, so no ref can shift', () => {
    assert.equal(parse('- text: pick [ref] here'), null);
    assert.equal(parse('- button "Keep {1}" [ref=e5]'), null);
    const forged = Array.from({ length: 6 }, (_, i) => ({
      lines: [`- text: [ref] row`, `- button "Keep" [ref=e${10 + 2 * i}]`, `- button "Delete" [ref=e${11 + 2 * i}]`],
    }));
    assert.deepEqual(fold(forged), []);
  });
});

describe('fold: slot templates and values', () => {
  it('shares what all items have and makes a column of each stretch that differs', () => {
    assert.deepEqual(slotTemplate(['same', 'same']), [{ lit: 'same' }]);
    assert.deepEqual(slotTemplate(['Order 1 · open', 'Order 22 · packed']), [
      { lit: 'Order ' }, { col: ['1', '22'] }, { lit: ' · ' }, { col: ['open', 'packed'] }]);
  });

  it('words of different counts: the first words each a column (a method, a path another slot repeats), then the rest', () => {
    assert.deepEqual(slotTemplate(['GET /events List public events', 'POST /gists Create a gist now']), [
      { col: ['GET', 'POST'] }, { lit: ' ' }, { col: ['/events', '/gists'] }, { lit: ' ' }, { col: ['List public events', 'Create a gist now'] }]);
  });

  it('a value with "|" or a quote is a JSON string, read back whole', () => {
    const segs = Array.from({ length: 6 }, (_, i) => ({ lines: [`- text: cell ${i} | a|b ${i}`, `- button "Say \\"${i}\\"" [ref=e${i + 1}]`] }));
    const [{ lines }] = fold(segs);
    assert.deepEqual(unfold(lines.join('\n')), segs.flatMap((s) => s.lines));
    assert.deepEqual(splitValues('1|"a|b"|'), ['1', 'a|b', '']);
    assert.deepEqual(parseItem('  e1 f2e3: x|y'), { refs: ['e1', 'f2e3'], values: ['x', 'y'] });
    assert.deepEqual(parseItem('  e7'), { refs: ['e7'], values: [] });
  });
});

describe('fold: refs that follow on', () => {
  // A card of four elements with refs e(4i+1)…e(4i+4), as Swagger UI's operations.
  const cards = (n, gap = 0) => Array.from({ length: n }, (_, i) => {
    const r = 4 * i + 1;
    return { lines: [
      `- button "GET /x${i} Get x${i}" [ref=e${r}]`, `- button "Copy" [ref=e${r + 1}]`,
      `- button "get /x${i}" [ref=e${r + 2 + gap}]`, `- link "Docs ${i}" [ref=e${r + 3 + gap}]`] };
  });

  it('three or more refs in a row are written as a range, and read back one by one', () => {
    const segs = cards(5);
    const [{ lines }] = fold(segs);
    assert.ok(lines.includes('  e1-4: x0|0'), lines.join('\n'));
    assert.deepEqual(unfold(lines.join('\n')), segs.flatMap((s) => s.lines));
  });

  it('two in a row, or a gap, stay refs of their own', () => {
    const segs = cards(5, 1); // e1 e2 e4 e5: two pairs
    const [{ lines }] = fold(segs);
    assert.ok(lines.includes('  e1 e2 e4 e5: x0|0'), lines.join('\n'));
    assert.deepEqual(unfold(lines.join('\n')), segs.flatMap((s) => s.lines));
  });

  it('a frame\'s lines get its prefix on every ref, both ends of a range too; unfold reads them back', () => {
    assert.equal(withPrefix('  e7-9 e11: x|y', 'f2'), '  f2e7-f2e9 f2e11: x|y');
    assert.equal(withPrefix('- button "e7-9: e3" [ref=e4]', 'f2'), '- button "e7-9: e3" [ref=f2e4]', 'a name is not refs');
    assert.equal(withPrefix('  e7-9: x', ''), '  e7-9: x');
    const run = ['- 3 items like [ref=e9]:', '  - button "{1}" [ref]', '  - button "Copy" [ref]', '  - link "{1}" [ref]',
      '  e1-3: a', '  e4-6: b', '  e7-9: c'];
    assert.deepEqual(unfold(run.map((l) => withPrefix(l, 'f1')).join('\n')).slice(0, 3),
      ['- button "a" [ref=f1e1]', '- button "Copy" [ref=f1e2]', '- link "a" [ref=f1e3]']);
  });

  it('a frame\'s range has its prefix on both ends', () => {
    assert.deepEqual(parseItem('  f2e7-f2e9 e11: x'), { refs: ['f2e7', 'f2e8', 'f2e9', 'e11'], values: ['x'] });
    assert.deepEqual(parseItem('  e7-9: x'), { refs: ['e7', 'e8', 'e9'], values: ['x'] });
  });
});

describe('overview with a folded run', () => {
  it('an item on screen brings its run\'s header and template along', () => {
    const [{ lines: run }] = fold(rows(50));
    const lines = ['- heading "Orders" [level=1]', ...run, '- text: end'];
    const at = lines.indexOf('  e125: 25|packed');
    const shown = overview(lines, [at], 2000);
    assert.deepEqual(shown.lines, ['- heading "Orders" [level=1]', '- 50 items like [ref=e9]:', '  - text: Order {1} · {2}',
      '  - button "Cancel order {1}" [ref]', '  …', '  e125: 25|packed', '  …']);
  });
});
