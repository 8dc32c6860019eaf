// Docs that drift when code moves (issue 43 item 6): the layout names every
// source file of the programs, the state tables list every tool of the host,
// and the README stays short. What can be generated is (codegen/generate.mjs);
// this covers what is written by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { TOOL_POLICIES } from '../../extension/worker/tool_catalog.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (rel) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

// Whether `doc` names the source stem: `stem` itself, or a `prefix*` that covers it.
function names(doc, stem) {
  if (new RegExp(`\\b${stem}\\b`).test(doc)) return true;
  return [...doc.matchAll(/`([\w/]+)\*`/g)].some((m) => stem.startsWith(path.basename(m[1])));
}

// The rows of the first "| state | tools |" table of a Markdown file.
function stateTable(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^\| state \| tools \|/.test(l));
  assert.ok(start >= 0, 'a "| state | tools |" table');
  const rows = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
  return rows.join('\n');
}

describe('docs that are written by hand stay true', () => {
  const layout = read('docs/layout.md');
  for (const dir of ['host']) {
    it(`docs/layout.md names every file of ${dir}/`, () => {
      const stems = new Set(fs.readdirSync(path.join(ROOT, dir))
        .filter((f) => /\.(h|cpp)$/.test(f))
        .map((f) => f.replace(/\.(h|cpp)$/, '').replace(/_windows$/, '')));
      const missing = [...stems].filter((stem) => !names(layout, stem));
      assert.deepEqual(missing, [], `docs/layout.md does not name ${missing.join(', ')}`);
    });
  }

  for (const doc of ['README.md', 'docs/behaviour.md']) {
    it(`${doc}'s state table lists every tool of the host`, () => {
      const table = stateTable(read(doc));
      const host = Object.entries(TOOL_POLICIES).filter(([, p]) => p.kind === 'host').map(([n]) => n);
      assert.ok(host.length >= 5);
      const missing = host.filter((n) => !table.includes(`\`${n}`));
      assert.deepEqual(missing, [], `${doc}'s state table leaves out ${missing.join(', ')}`);
    });
  }

  it('README.md stays at most 220 lines (the rest is in docs/)', () => {
    const lines = read('README.md').split('\n').length - 1;
    assert.ok(lines <= 220, `README.md has ${lines} lines`);
  });
});
