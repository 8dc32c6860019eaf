// extension/tools/shared/snapshot_overview.js: the first page of a snapshot
// too long for one answer — what is on screen and the page's outline, each
// with the containers around it, "…" where lines are left out.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { isOutline, overview } from '../../extension/tools/shared/snapshot_overview.js';

// A page: a banner with a small navigation, a big list region, a footer.
const rows = Array.from({ length: 40 }, (_, i) => `  - button "Row ${i + 1}" [ref=e${i + 10}]`);
const PAGE = [
  '- banner:', //                          0
  '  - heading "Shop" [level=1]', //        1
  '  - navigation "Main":', //              2
  '    - link "Home" [ref=e1] /', //        3
  '    - link "Cart" [ref=e2] /cart', //    4
  '- region "Results":', //                 5
  ...rows, //                               6..45
  '- heading "The end" [level=2]', //       46
  '- text: Totals:', //                     47
  '- contentinfo:', //                      48
  '  - text: Footer', //                    49
];
const at = (n) => 5 + n; // the line of Row n

describe('overview', () => {
  it('shows the rows on screen inside their region, and "…" where rows are left out', () => {
    const { lines, cut } = overview(PAGE, [at(20), at(21)], 10_000);
    assert.equal(cut, false);
    const region = lines.indexOf('- region "Results":');
    assert.deepEqual(lines.slice(region, region + 5), [
      '- region "Results":',
      '  …',
      '  - button "Row 20" [ref=e29]',
      '  - button "Row 21" [ref=e30]',
      '  …',
    ]);
    assert.ok(!lines.includes(PAGE[at(1)]) && !lines.includes(PAGE[at(40)]), 'rows off screen are left out');
  });

  it('shows the outline off screen: landmarks and headings, in document order', () => {
    const { lines } = overview(PAGE, [at(20)], 10_000);
    const outline = ['- banner:', '  - heading "Shop" [level=1]', '- region "Results":', '- heading "The end" [level=2]', '- contentinfo:'];
    assert.deepEqual(lines.filter((l) => outline.includes(l)), outline);
  });

  it('shows a small landmark whole (the navigation, the footer), not a big one', () => {
    const { lines } = overview(PAGE, [at(20)], 10_000);
    for (const l of ['    - link "Home" [ref=e1] /', '    - link "Cart" [ref=e2] /cart', '  - text: Footer']) assert.ok(lines.includes(l), l);
    assert.equal(lines.filter((l) => l.includes('button "Row')).length, 1, 'the 40-row region is not shown whole');
  });

  it('a text line ending in a colon is not a container or a landmark', () => {
    assert.equal(isOutline('- text: Totals:'), false);
    assert.equal(isOutline('- navigation "a: b":'), true);
    assert.equal(isOutline('  - heading "Shop" [level=1]'), true);
    assert.equal(isOutline('- button "banner:"'), false);
  });

  it('over budget: the screen first, then says it was cut', () => {
    const screen = Array.from({ length: 40 }, (_, i) => at(i + 1));
    const { lines, cut } = overview(PAGE, screen, 400);
    assert.equal(cut, true);
    assert.ok(lines.includes(PAGE[at(1)]), 'the first rows on screen are shown');
    assert.ok(!lines.includes(PAGE[at(40)]), 'not all of them');
    assert.ok(lines.join('\n').length <= 400 + 40, `about the budget: ${lines.join('\n').length}`);
  });
});

describe('overview: cost', () => {
  // The page sets how many lines there are and how deep they nest: 100 nested
  // navigations over 100,000 lines cost the service worker 36 s when each
  // landmark scanned the lines inside it. Counted in reads of the lines.
  it('reads each line a few times, however deep the landmarks nest', () => {
    const lines = [];
    for (let d = 0; d < 50; d++) lines.push(`${'  '.repeat(d)}- navigation:`);
    for (let i = 0; i < 5000; i++) lines.push(`${'  '.repeat(50)}- text: x`);
    let reads = 0;
    const counted = new Proxy(lines, {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return target[key];
      },
    });
    const { lines: shown, cut } = overview(counted, [], 20_000);
    assert.equal(cut, false);
    assert.equal(shown.length, 51); // the navigations, then "…" for the text
    assert.ok(reads < 10 * lines.length, `${reads} reads of ${lines.length} lines`);
  });
});
