#!/usr/bin/env node
// Writes every copy of what C++ defines once (common/tool_catalog.cpp,
// common/protocol.h, common/capabilities.cpp) into the JavaScript and Markdown
// that need it:
//   extension/worker/tool_catalog.js   the page tools' capabilities, deadlines, defaults (`tabbridge tools --js`)
//   extension/worker/wire.js           the wire names, limits, deadlines, codes (`tabbridge tools --wire-js`)
//   page scripts' constants blocks     classic scripts cannot import: a marked block per script
//   page scripts' text-cut blocks      the one cut of page text, from extension/worker/text_cut.js
//   the page-tool modules' imports     a marked block (extension/tools/registry.js)
//   tests' tool name lists             a marked block (tests/e2e/page_helpers.mjs)
//   the page-tool tables               a marked block in README.md and docs/page_tools.md
//   the capability tables              marked blocks: the policy's (docs/policy.md), the session's
//                                      (README.md, docs/behaviour.md) (`tabbridge tools --caps-json`)
//   the audited tools                  a marked block in docs/audit.md (the same)
//   extension/background.js            the service worker as the browser runs it: worker/main.js and
//                                      all it imports in one file (esbuild, pinned in tests/e2e)
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
import { WORKER_BUNDLE, workerBundle } from './worker_bundle.mjs';

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
const caps = JSON.parse(run('--caps-json'));

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
  // Every name tabbridge itself serves, whatever the caps: a page's own tool is none of these.
  const all = caps.tools.map((t) => t.name);
  return [
    `${indent}export const PAGE_TOOLS_DEFAULT = Object.freeze([${names.map((n) => `'${n}'`).join(', ')}]);`,
    `${indent}export const TABBRIDGE_TOOLS = Object.freeze([${all.map((n) => `'${n}'`).join(', ')}]);`,
  ];
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

const code = (names) => names.map((n) => `\`${n}\``).join(', ');
// A tool as the capability docs name it: `evaluate` (`--caps eval`).
const toolNeeding = (t) => (t.sessionCap ? `\`${t.name}\` (\`--caps ${t.sessionCap}\`)` : `\`${t.name}\``);

// docs/policy.md: every policy capability, what it allows and every tool that needs it.
function capabilityTableBlock() {
  const rows = ['| capability | allows | tools |', '|---|---|---|'];
  for (const cap of caps.policy) {
    const needing = caps.tools.filter((t) => t.capability === cap.name).map(toolNeeding);
    rows.push(`| \`${cap.name}\` | ${cap.meaning} | ${needing.join(', ')} |`);
  }
  rows.push('| `all` | every one of them | |');
  const none = caps.tools.filter((t) => !t.capability).map((t) => t.name);
  return [...rows, '', `${code(none)} need none.`];
}

// docs/audit.md: the tools whose capability the audit log keeps (common/capabilities.h Audited).
function auditedToolsBlock() {
  const audited = new Set(caps.policy.filter((c) => c.audited).map((c) => c.name));
  const logged = caps.tools.filter((t) => t.capability && audited.has(t.capability)).map((t) => t.name);
  const reads = caps.tools.filter((t) => t.capability && !audited.has(t.capability)).map((t) => t.name);
  const none = caps.tools.filter((t) => !t.capability).map((t) => t.name);
  return [
    `These tools, for the tab they acted on: ${code(logged)}, and the page's own tools (called directly or ` +
      'through `call_webmcp_tool`) — every call that needs more than `read` (docs/policy.md).',
    '',
    `Not logged: the reads (${code(reads)}) and the tools that need no capability (${code(none)}).`,
  ];
}

// README.md, docs/behaviour.md: what each `--caps` capability adds.
function sessionCapTableBlock() {
  const rows = ['| capability | adds |', '|---|---|'];
  for (const cap of caps.session) rows.push(`| \`${cap.name}\` | ${code(cap.tools)}: ${cap.meaning} |`);
  return rows;
}

// The first line of a marked block: its indent, kind and the rest of the line.
const BEGIN = /^(\s*)(?:\/\/|<!--) generated: ([\w-]+)(.*?)(?:-->)?\s*$/;

// Rewrites every marked block of `text`; the kinds: constants, text-cut, page-tool-names, page-tool-table,
// page-tool-modules, capability-table, audited-tools, session-cap-table.
function rewriteBlocks(text, file) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const begin = BEGIN.exec(lines[i]);
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
    else if (kind === 'capability-table') out.push(...capabilityTableBlock());
    else if (kind === 'audited-tools') out.push(...auditedToolsBlock());
    else if (kind === 'session-cap-table') out.push(...sessionCapTableBlock());
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
  'extension/page/results_isolated.js',
  'extension/page/buttons_isolated.js',
  'extension/page/console_main.js',
  'extension/page/agent/text.js',
  'extension/tools/registry.js',
  'tests/e2e/page_helpers.mjs',
  'README.md',
  'docs/page_tools.md',
  'docs/policy.md',
  'docs/audit.md',
  'docs/behaviour.md',
];

// A marked block in a file the list leaves out would be checked by nothing:
// the files under these that hold one must all be listed.
function unlistedBlocks() {
  const found = [];
  const walk = (rel) => {
    const abs = path.join(ROOT, rel);
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isFile()) {
      const marked = fs.readFileSync(abs, 'utf8').split('\n').some((l) => BEGIN.test(l));
      if (marked && !WITH_BLOCKS.includes(rel)) found.push(rel);
      return;
    }
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      if (e.isDirectory() || /\.(m?js|md)$/.test(e.name)) walk(path.posix.join(rel, e.name));
    }
  };
  for (const rel of ['README.md', 'docs', 'extension', 'tests', 'bench']) walk(rel);
  return found;
}

if (args.includes('--list')) {
  console.log([...Object.keys(WHOLE), ...WITH_BLOCKS, WORKER_BUNDLE].join('\n'));
  process.exit(0);
}

const unlisted = unlistedBlocks();
if (unlisted.length) {
  console.error(`codegen: ${unlisted.join(', ')}: a "generated:" block outside the generator's list (WITH_BLOCKS ` +
    'in codegen/generate.mjs), which nothing would keep in sync — add the file there');
  process.exit(1);
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
write(WORKER_BUNDLE, workerBundle(ROOT));

if (check && stale.length) {
  console.error(`stale generated files (their sources are C++ and the worker's modules): ${stale.join(', ')}\n` +
    'regenerate them with: node codegen/generate.mjs --tabbridge build/bin/tabbridge');
  process.exit(1);
}
if (!check) console.log(stale.length ? `wrote ${stale.join(', ')}` : 'everything generated is up to date');
