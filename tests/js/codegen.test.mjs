// codegen/generate.mjs: the JavaScript and Markdown copies of what C++
// defines once are rewritten from it, and --check (CTest generated_in_sync)
// fails naming each stale file. Runs on a copy of the files in a temp dir.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TABBRIDGE = path.join(process.env.TABBRIDGE_BUILD_DIR || path.join(ROOT, 'build'), 'bin', 'tabbridge');
// What the generator writes (its own --list), the generator itself and its
// one JavaScript source (the page scripts' text-cut blocks).
const FILES = !fs.existsSync(TABBRIDGE) ? [] : [
  'codegen/generate.mjs',
  'codegen/worker_bundle.mjs',
  'extension/worker/text_cut.js',
  ...execFileSync(process.execPath, [path.join(ROOT, 'codegen/generate.mjs'), '--list', '--tabbridge', TABBRIDGE], { encoding: 'utf8' })
    .trim().split('\n'),
];

describe('codegen/generate.mjs', { skip: !fs.existsSync(TABBRIDGE) && `no ${TABBRIDGE}` }, () => {
  let dir;
  const gen = (...args) => spawnSync(process.execPath, [path.join(dir, 'codegen/generate.mjs'), ...args, '--tabbridge', TABBRIDGE], { encoding: 'utf8' });
  const read = (rel) => fs.readFileSync(path.join(dir, rel), 'utf8');
  const edit = (rel, from, to) => {
    const text = read(rel);
    assert.ok(text.includes(from), `${rel} has ${from}`);
    fs.writeFileSync(path.join(dir, rel), text.replace(from, to));
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-codegen-'));
    for (const rel of FILES) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, rel), path.join(dir, rel));
    }
    // The worker's bundle is made of every module the worker imports, with
    // the esbuild pinned in tests/e2e.
    fs.cpSync(path.join(ROOT, 'extension'), path.join(dir, 'extension'), { recursive: true, force: false });
    fs.copyFileSync(path.join(ROOT, 'tests/e2e/package.json'), path.join(dir, 'tests/e2e/package.json'));
    fs.symlinkSync(path.join(ROOT, 'tests/e2e/node_modules'), path.join(dir, 'tests/e2e/node_modules'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the tree as committed is up to date', () => {
    const r = gen('--check');
    assert.equal(r.status, 0, r.stderr);
  });

  it('--check names every stale copy and changes nothing', () => {
    edit('extension/worker/wire.js', 'PAGE_TOOL_MS: 30000', 'PAGE_TOOL_MS: 31000');
    edit('extension/page/own_tools_main.js', 'const MAX_NAME_CHARS = 128;', 'const MAX_NAME_CHARS = 64;');
    edit('tests/e2e/page_helpers.mjs', "'snapshot', ", '');
    edit('docs/page_tools.md', '| `click` |', '| `klick` |');
    // The hand-kept lists that once drifted: each is a generated block now.
    edit('docs/policy.md', '`drag` (`--caps drag`), ', '');
    edit('docs/audit.md', '`save_pdf`, ', '');
    edit('docs/behaviour.md', '`network_requests`, `network_request`:', '`network_requests`:');
    edit('extension/page/results_isolated.js', 'const MAX_RESULT_LISTS = 3;', 'const MAX_RESULT_LISTS = 4;');
    // A worker module changed without the bundle the browser runs.
    edit('extension/worker/time.js', "new DOMException('aborted', 'AbortError')", "new DOMException('aborted!', 'AbortError')");
    const r = gen('--check');
    assert.equal(r.status, 1);
    for (const rel of ['extension/background.js', 'extension/worker/wire.js', 'extension/page/own_tools_main.js', 'tests/e2e/page_helpers.mjs', 'docs/page_tools.md',
      'docs/policy.md', 'docs/audit.md', 'docs/behaviour.md', 'extension/page/results_isolated.js']) {
      assert.match(r.stderr, new RegExp(rel.replace(/[./]/g, '\\$&')), r.stderr);
    }
    assert.match(read('extension/worker/wire.js'), /PAGE_TOOL_MS: 31000/, '--check writes nothing');
  });

  it('without --check it rewrites them from C++, and the tree is up to date again', () => {
    const r = gen();
    assert.equal(r.status, 0, r.stderr);
    assert.match(read('extension/worker/wire.js'), /PAGE_TOOL_MS: 30000, \/\/ kPageToolDeadlineMs/);
    assert.match(read('extension/page/own_tools_main.js'), /const MAX_NAME_CHARS = 128;/);
    assert.match(read('tests/e2e/page_helpers.mjs'), /PAGE_TOOLS_DEFAULT = Object\.freeze\(\['snapshot', 'click'/);
    assert.match(read('docs/page_tools.md'), /\| `click` \| `act` \|/);
    assert.match(read('docs/policy.md'), /\| `act` \| .* `drag` \(`--caps drag`\)/);
    assert.match(read('docs/audit.md'), /`download_file`, `save_pdf`, and the page's own tools/);
    assert.match(read('docs/behaviour.md'), /\| `network` \| `network_requests`, `network_request`:/);
    assert.match(read('extension/page/results_isolated.js'), /const MAX_RESULT_LISTS = 3;/);
    assert.match(read('extension/background.js'), /^\/\/ Generated by codegen\/generate\.mjs/);
    assert.match(read('extension/background.js'), /"aborted!"/, 'the bundle holds the changed module');
    assert.equal(gen('--check').status, 0);
  });

  it('a marked block in a file the generator does not list is an error: nothing would check it', () => {
    const rel = 'extension/page/unlisted.js';
    fs.writeFileSync(path.join(dir, rel), '  // generated: constants MAX_RESULT_LISTS\n  const MAX_RESULT_LISTS = 3;\n  // end generated\n');
    try {
      const r = gen('--check');
      assert.equal(r.status, 1);
      assert.match(r.stderr, /extension\/page\/unlisted\.js: a "generated:" block outside the generator's list/);
    } finally {
      fs.rmSync(path.join(dir, rel));
    }
    assert.equal(gen('--check').status, 0);
  });

  it('a block naming a constant C++ does not define is an error, not a silent gap', () => {
    edit('extension/page/own_tools_relay.js', 'generated: constants MAX_REPORTED_TOOLS', 'generated: constants MAX_REPORTED_TOOLS NO_SUCH_LIMIT');
    const r = gen('--check');
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /no wire constant NO_SUCH_LIMIT/);
  });
});
