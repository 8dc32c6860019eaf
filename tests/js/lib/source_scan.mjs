// Reading the extension's sources for the static checks (tests/js/
// input_broker_static, read_primitives, catalog_walk): what a module's code
// names once its comments are gone, and every module a tool imports.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const EXT = path.join(ROOT, 'extension');
export const BROKER = 'worker/input_broker.js';
export const CDP = 'worker/cdp.js';

// A module's path as the lists name it (relative to extension/, with /).
export const rel = (file) => path.relative(EXT, file).split(path.sep).join('/');

// Every .js file under dir.
export function walk(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.name.endsWith('.js')) out.push(p);
  }
  return out;
}

// The source without its comments (strings and template literals kept).
export function withoutComments(src) {
  let out = '';
  for (let i = 0; i < src.length;) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === '\'' || c === '"' || c === '`') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

// The broker's allow-list, as its source writes it.
export function allowList() {
  const src = fs.readFileSync(path.join(EXT, BROKER), 'utf8');
  const block = src.match(/export const EFFECTFUL_METHODS = Object\.freeze\(\[([\s\S]*?)\]\)/);
  assert.ok(block, 'input_broker.js lists EFFECTFUL_METHODS');
  return [...block[1].matchAll(/'([A-Za-z]+\.[A-Za-z]+)'/g)].map((m) => m[1]);
}

export const METHODS = allowList();

// What in a module's code (not its comments) sends or names an effectful command.
export function offences(code, name) {
  const found = [];
  for (const m of code.matchAll(/(?<![A-Za-z0-9_$])Input\.[a-zA-Z]+/g)) found.push(m[0]);
  for (const method of METHODS) if (!method.startsWith('Input.') && code.includes(method)) found.push(method);
  if (name !== CDP && /chrome\s*\.\s*debugger\s*\.\s*sendCommand/.test(code)) found.push('chrome.debugger.sendCommand');
  if (name !== CDP && name !== BROKER && /\breserveMethods\b/.test(code)) found.push('reserveMethods');
  return [...new Set(found)];
}


// Every module a file imports (relative imports, followed).
export function importsOf(file) {
  const code = withoutComments(fs.readFileSync(file, 'utf8'));
  return [...code.matchAll(/(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]/g)]
    .map((m) => m[1] ?? m[2]).filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s));
}

export function closure(entry) {
  const seen = new Set();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f) || !fs.existsSync(f)) continue;
    seen.add(f);
    todo.push(...importsOf(f));
  }
  return [...seen];
}
