// The one input broker (extension/worker/input_broker.js) is the only module
// that names an effectful CDP method (trusted input, a dialog's answer, files
// into an input) and cdp.js the only one that calls chrome.debugger.sendCommand:
// read from the source, so a tool added later that sends input its own way
// fails here, not in an attack review. (cdp.js also refuses the broker's
// methods at run time: names built from pieces get no further.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXT = path.join(ROOT, 'extension');
const BROKER = 'worker/input_broker.js';
const CDP = 'worker/cdp.js';

const rel = (file) => path.relative(EXT, file).split(path.sep).join('/');

function walk(dir) {
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
function allowList() {
  const src = fs.readFileSync(path.join(EXT, BROKER), 'utf8');
  const block = src.match(/export const EFFECTFUL_METHODS = Object\.freeze\(\[([\s\S]*?)\]\)/);
  assert.ok(block, 'input_broker.js lists EFFECTFUL_METHODS');
  return [...block[1].matchAll(/'([A-Za-z]+\.[A-Za-z]+)'/g)].map((m) => m[1]);
}

const METHODS = allowList();

// What in a module's code (not its comments) sends or names an effectful command.
export function offences(code, name) {
  const found = [];
  for (const m of code.matchAll(/(?<![A-Za-z0-9_$])Input\.[a-zA-Z]+/g)) found.push(m[0]);
  for (const method of METHODS) if (!method.startsWith('Input.') && code.includes(method)) found.push(method);
  if (name !== CDP && /chrome\s*\.\s*debugger\s*\.\s*sendCommand/.test(code)) found.push('chrome.debugger.sendCommand');
  if (name !== CDP && name !== BROKER && /\breserveMethods\b/.test(code)) found.push('reserveMethods');
  return [...new Set(found)];
}

const FILES = walk(EXT).filter((f) => rel(f) !== 'background.js');

describe('the one input broker, read from the source', () => {
  it('the allow-list has the effectful methods the issue names', () => {
    for (const m of ['Input.dispatchMouseEvent', 'Input.dispatchKeyEvent', 'Input.insertText', 'Input.dispatchDragEvent',
      'Input.setInterceptDrags', 'Page.handleJavaScriptDialog', 'DOM.setFileInputFiles']) {
      assert.ok(METHODS.includes(m), `${m} in EFFECTFUL_METHODS`);
    }
  });

  it('the scanner sees a send in code and not in a comment', () => {
    assert.deepEqual(offences(withoutComments("await cdp(tabId, 'Input.dispatchKeyEvent', p);"), 'tools/x.js'), ['Input.dispatchKeyEvent']);
    assert.deepEqual(offences(withoutComments('cdp(t, "Page.handleJavaScriptDialog", {});'), 'tools/x.js'), ['Page.handleJavaScriptDialog']);
    assert.deepEqual(offences(withoutComments('chrome.debugger.sendCommand({ tabId }, m)'), 'tools/x.js'), ['chrome.debugger.sendCommand']);
    assert.deepEqual(offences(withoutComments('// what Input.insertText cannot fill\n/* Input.dispatchMouseEvent */ x = 1;'), 'tools/x.js'), []);
    assert.deepEqual(offences(withoutComments("const s = '// not a comment Input.insertText';"), 'tools/x.js'), ['Input.insertText']);
    assert.deepEqual(offences(withoutComments('x instanceof HTMLInputElement; e.inputType'), 'tools/x.js'), []);
  });

  it('no module but the broker names an effectful CDP method, and only cdp.js calls chrome.debugger.sendCommand', () => {
    const bad = [];
    for (const file of FILES) {
      const name = rel(file);
      if (name === BROKER) continue;
      const found = offences(withoutComments(fs.readFileSync(file, 'utf8')), name);
      if (found.length) bad.push(`${name}: ${found.join(', ')}`);
    }
    assert.deepEqual(bad, [], 'effectful CDP outside worker/input_broker.js');
  });

  it('the broker reserves its methods in cdp.js, which refuses them to cdp() and the attach hooks', () => {
    const broker = withoutComments(fs.readFileSync(path.join(EXT, BROKER), 'utf8'));
    assert.match(broker, /reserveMethods\(EFFECTFUL_METHODS, EFFECTFUL_PREFIXES\)/);
    const cdp = withoutComments(fs.readFileSync(path.join(EXT, CDP), 'utf8'));
    assert.match(cdp, /export function cdp\([^)]*\) \{\s*try \{\s*refuseReserved\(method\)/);
    assert.match(cdp, /const sender = [^\n]*refuseReserved\(method\)/);
  });
});

// Every tool of the catalog, with every module it imports: none sends an
// effectful command but through the broker.
function importsOf(file) {
  const code = withoutComments(fs.readFileSync(file, 'utf8'));
  return [...code.matchAll(/(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]/g)]
    .map((m) => m[1] ?? m[2]).filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s));
}

function closure(entry) {
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

describe('the tool catalog, tool by tool', () => {
  const catalog = fs.readFileSync(path.join(EXT, 'worker/tool_catalog.js'), 'utf8');
  const tools = [...catalog.matchAll(/^\s+(\w+): Object\.freeze\(\{ capability:/gm)].map((m) => m[1]);

  it('lists the page tools', () => assert.ok(tools.length >= 20, `${tools.length} tools read from tool_catalog.js`));

  for (const name of [...tools, 'own/own_tools']) {
    it(`${name}: its effectful CDP commands go through the broker`, () => {
      const entry = path.join(EXT, 'tools', `${name}.js`);
      assert.ok(fs.existsSync(entry), `tools/${name}.js`);
      const modules = closure(entry);
      assert.ok(modules.some((f) => rel(f) === 'tools/stack/page_tool.js') || name.startsWith('own/'), `${name} goes through page_tool.js`);
      const bad = [];
      for (const f of modules) {
        const r = rel(f);
        if (r === BROKER) continue;
        const found = offences(withoutComments(fs.readFileSync(f, 'utf8')), r);
        if (found.length) bad.push(`${r}: ${found.join(', ')}`);
      }
      assert.deepEqual(bad, []);
    });
  }
});
