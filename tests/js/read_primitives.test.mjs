// Provenance on every read (issue 42 item 1): the page is read only through
// the modules that note what they read (extension/tools/stack/reads.js). A
// new tool that ran a script in a page, evaluated over CDP or captured the
// page anywhere else could hand over text the host never judged: this check
// fails the build instead. Pure: reads the sources, runs nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { PRIMITIVES } from './lib/read_primitives.mjs';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');

// Every worker-side module: what runs in pages (extension/page/) reads its own
// document by definition and answers only through the primitives above; the
// bundle is generated from these files.
function workerSources() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const rel = path.relative(EXTENSION, p).split(path.sep).join('/');
      if (e.isDirectory()) {
        if (rel !== 'page') walk(p);
      } else if (rel.endsWith('.js') && rel !== 'background.js') {
        out.push(rel);
      }
    }
  };
  walk(EXTENSION);
  return out;
}

// Comments may name a primitive.
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('the page is read only through the read primitives', () => {
  const sources = workerSources().map((rel) => ({ rel, text: code(fs.readFileSync(path.join(EXTENSION, rel), 'utf8')) }));

  it('finds the extension\'s modules', () => assert.ok(sources.length > 50, `${sources.length} modules`));

  for (const p of PRIMITIVES) {
    it(`${p.what} only in its allowed files`, () => {
      const outside = sources.filter((s) => p.pattern.test(s.text) && !(s.rel in p.allowed)).map((s) => s.rel);
      assert.deepEqual(outside, [], `${p.what} outside the read primitives — read through stack/reads.js's modules, ` +
        'or add the file to this list with why its reads are noted');
    });

    it(`${p.what}: every allowed file still uses it (the list stays true)`, () => {
      for (const rel of Object.keys(p.allowed)) {
        const s = sources.find((x) => x.rel === rel);
        assert.ok(s && p.pattern.test(s.text), `${rel} no longer uses ${p.what}: take it off the list`);
      }
    });
  }

  it('every page tool goes through pageTool, which stamps its answer (stack/page_tool.js)', () => {
    const registry = sources.find((s) => s.rel === 'tools/registry.js');
    const tools = [...registry.text.matchAll(/from '\.\/([\w/]+\.js)'/g)].map((m) => `tools/${m[1]}`);
    assert.ok(tools.length > 20, `${tools.length} tool modules`);
    for (const rel of tools) {
      const s = sources.find((x) => x.rel === rel);
      if (!s || !/export const tool\b/.test(s.text)) continue;
      assert.match(s.text, /export const tool = pageTool\(/, `${rel}: its handler is not a pageTool (no ledger, no stamp)`);
    }
    const pageTool = sources.find((s) => s.rel === 'tools/stack/page_tool.js');
    assert.match(pageTool.text, /stampResult\(/, 'pageTool stamps every answer');
    assert.match(sources.find((s) => s.rel === 'tools/own/own_tools.js').text, /pageTool\(callOwnTool/, 'owntool.call is a pageTool');
  });
});
