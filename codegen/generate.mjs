#!/usr/bin/env node
// Writes every copy of what C++ defines once (common/tool_catalog.cpp,
// common/protocol.h) into the JavaScript and Markdown that need it:
//   extension/worker/tool_catalog.js   the page tools' capabilities, deadlines, defaults (`tabbridge tools --js`)
//   extension/worker/wire.js           the wire names, limits, deadlines, codes (`tabbridge tools --wire-js`)
//   page scripts' constants blocks     classic scripts cannot import: a marked block per script
//   page scripts' text-cut blocks      the one cut of page text, from extension/worker/text_cut.js
//   the page-tool modules' imports     a marked block (extension/tools/registry.js)
//   tests' tool name lists             a marked block (tests/e2e/page_helpers.mjs)
//   the page-tool tables               a marked block in README.md and docs/page_tools.md
//
//   node codegen/generate.mjs [--check | --list] [--tabbridge build/bin/tabbridge]
// --check writes nothing and exits 1 naming every stale file (the CTest
// generated_in_sync runs it); --list prints the files it writes, one a line.
//
// A marked block: a line containing "generated: <kind>" (and, for constants,
// the names it wants), the generated lines, and a line containing
// "end generated". The generator rewrites what is between the two.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const tabbridgeAt = args.indexOf('--tabbridge');
const tabbridge = tabbridgeAt >= 0 ? args[tabbridgeAt + 1] : path.join(ROOT, 'build/bin/tabbridge');

const run = (...a) => execFileSync(tabbridge, ['tools', ...a], { encoding: 'utf8' });
const catalogJs = run('--js');
const wireJs = run('--wire-js');
const wire = JSON.parse(run('--wire-json'));
const tools = JSON.parse(run('--json'));

// The one cut of page text: the worker imports it, page scripts get its source.
const textCut = await import(pathToFileURL(path.join(ROOT, 'extension/worker/text_cut.js')));

// The page tools, from the generated catalog module itself (its text, as data).
const PAGE_TOOLS = await importText(catalogJs, 'PAGE_TOOLS');

async function importText(text, name) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tb-gen-')), 'm.mjs');
  fs.writeFileSync(file, text);
  try {
    return (await import(pathToFileURL(file)))[name];
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

// ---- the blocks ---------------------------------------------------------------

// `const NAME = value;` for each name the begin line lists (from any wire group).
function constantsBlock(indent, names) {
  const all = Object.assign({}, ...Object.values(wire));
  return names.map((n) => {
    if (!(n in all)) throw new Error(`codegen: no wire constant ${n} (common/wire_js.cpp)`);
    return `${indent}const ${n} = ${JSON.stringify(all[n])};`;
  });
}

function pageToolNamesBlock(indent) {
  // Tools a session turns on with --caps are not listed by default.
  const names = Object.entries(PAGE_TOOLS).filter(([, t]) => !t.sessionCap).map(([n]) => n);
  return [`${indent}export const PAGE_TOOLS_DEFAULT = Object.freeze([${names.map((n) => `'${n}'`).join(', ')}]);`];
}

// cutEnd and cut of extension/worker/text_cut.js, as source (classic scripts cannot import).
function textCutBlock(indent) {
  return [textCut.cutEnd, textCut.cut].flatMap((f) => String(f).split('\n').map((l) => (l ? `${indent}${l}` : l)));
}

// tools/registry.js: one module per page tool, tools/<name>.js.
function pageToolModulesBlock(indent) {
  const names = Object.keys(PAGE_TOOLS);
  return [
    ...names.map((n) => `${indent}import * as ${n} from './${n}.js';`),
    '',
    `${indent}export const PAGE_TOOL_MODULES = Object.freeze({ ${names.join(', ')} });`,
  ];
}

function toolTableBlock() {
  const rows = ['| tool | needs | what it does |', '|---|---|---|'];
  for (const [name, t] of Object.entries(PAGE_TOOLS)) {
    const tool = tools.find((x) => x.name === name);
    const needs = t.sessionCap ? `\`${t.capability}\` (\`--caps ${t.sessionCap}\`)` : `\`${t.capability}\``;
    rows.push(`| \`${name}\` | ${needs} | ${tool.description.replace(/\|/g, '\\|')} |`);
  }
  return rows;
}

// Rewrites every marked block of `text`; the kinds: constants, text-cut, page-tool-names, page-tool-table.
function rewriteBlocks(text, file) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const begin = /^(\s*)(?:\/\/|<!--) generated: ([\w-]+)(.*?)(?:-->)?\s*$/.exec(lines[i]);
    out.push(lines[i]);
    if (!begin) continue;
    const [, indent, kind, rest] = begin;
    let end = i + 1;
    while (end < lines.length && !lines[end].includes('end generated')) end++;
    if (end === lines.length) throw new Error(`codegen: ${file}:${i + 1}: "generated: ${kind}" has no "end generated"`);
    if (kind === 'constants') out.push(...constantsBlock(indent, rest.match(/[A-Z][A-Z0-9_]+/g) ?? []));
    else if (kind === 'text-cut') out.push(...textCutBlock(indent));
    else if (kind === 'page-tool-names') out.push(...pageToolNamesBlock(indent));
    else if (kind === 'page-tool-table') out.push(...toolTableBlock());
    else if (kind === 'page-tool-modules') out.push(...pageToolModulesBlock(indent));
    else throw new Error(`codegen: ${file}:${i + 1}: unknown block kind ${kind}`);
    out.push(lines[end]);
    i = end;
  }
  return out.join('\n');
}

// ---- the files ------------------------------------------------------------------

const WHOLE = { 'extension/worker/tool_catalog.js': catalogJs, 'extension/worker/wire.js': wireJs };
const WITH_BLOCKS = [
  'extension/page/own_tools_main.js',
  'extension/page/own_tools_relay.js',
  'extension/page/forms_kit.js',
  'extension/page/forms_isolated.js',
  'extension/page/result_lists.js',
  'extension/page/console_main.js',
  'extension/page/agent/text.js',
  'extension/tools/registry.js',
  'tests/e2e/page_helpers.mjs',
  'README.md',
  'docs/page_tools.md',
];

if (args.includes('--list')) {
  console.log([...Object.keys(WHOLE), ...WITH_BLOCKS].join('\n'));
  process.exit(0);
}

const stale = [];
const write = (rel, text) => {
  const file = path.join(ROOT, rel);
  if (fs.readFileSync(file, 'utf8') === text) return;
  stale.push(rel);
  if (!check) fs.writeFileSync(file, text);
};
for (const [rel, text] of Object.entries(WHOLE)) write(rel, text);
for (const rel of WITH_BLOCKS) write(rel, rewriteBlocks(fs.readFileSync(path.join(ROOT, rel), 'utf8'), rel));

if (check && stale.length) {
  console.error(`stale generated files (C++ is the one definition): ${stale.join(', ')}\n` +
    'regenerate them with: node codegen/generate.mjs --tabbridge build/bin/tabbridge');
  process.exit(1);
}
if (!check) console.log(stale.length ? `wrote ${stale.join(', ')}` : 'everything generated is up to date');
