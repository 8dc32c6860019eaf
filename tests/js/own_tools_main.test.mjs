// The page's own tools, page side (extension/page/own_tools_main.js), in
// node:vm with a stand-in page whose document.modelContext is a native-like
// WebMCP runtime: the arguments reach the tool in the order the model wrote
// them (the worker hands them over as JSON text); a tool whose input schema
// is not an object is listed as an object of one property, "input", and gets
// the value itself; a call of a tool the page no longer has names the tools
// it has now.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

const SCRIPT = fs.readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension/page/own_tools_main.js'), 'utf8');

// Events without the DOM's brand checks: the script calls these methods on window and document.
class Target {
  addEventListener(type, fn) {
    (this.listeners ??= new Map()).set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  dispatchEvent(e) {
    for (const fn of this.listeners?.get(e.type) ?? []) fn(e);
    return true;
  }
}
class FakeEvent {
  constructor(type, init = {}) {
    this.type = type;
    this.detail = init.detail;
  }
}

/** Loads the script into a page whose WebMCP runtime has `tools` ({name, inputSchema, execute}). */
function page(tools) {
  const win = new Target();
  win.top = win;
  win.setTimeout = setTimeout;
  win.clearTimeout = clearTimeout;
  class Document extends Target {
    getElementsByTagName() { return []; }
  }
  const doc = new Document();
  doc.modelContext = {
    getTools: async () => tools.map(({ name, inputSchema }) => ({ name, description: name, inputSchema })),
    executeTool: async (tool, input) => {
      // What the browser does (Chromium 156): a primitive input is refused.
      if (input === null || typeof input !== 'object') throw new TypeError("Failed to execute 'executeTool' on 'ModelContext': invalid input object");
      return JSON.stringify(tools.find((t) => t.name === tool.name).execute(input));
    },
    addEventListener() {},
  };
  const context = vm.createContext({
    window: win, document: doc, navigator: {}, EventTarget: Target, CustomEvent: FakeEvent, TextEncoder,
    MutationObserver: class { observe() {} }, Document, Element: class { getAttribute() { return null; } hasAttribute() { return false; } },
  });
  vm.runInContext(SCRIPT, context);
  const registry = win[Symbol.for('tabbridge.owntools.v1')];
  // The tool list, as the relay gets it once it says it listens.
  const listed = new Promise((resolve) => win.addEventListener('tabbridge:owntools-list:v1', (e) => resolve(JSON.parse(e.detail))));
  win.dispatchEvent(new FakeEvent('tabbridge:owntools-ready:v1'));
  return { registry, listed };
}

describe('own_tools_main.js: arguments, schemas and names of the page\'s WebMCP tools', () => {
  it('the arguments reach execute() in the order of the JSON text the worker hands over', async () => {
    const { registry } = page([{ name: 'echo', inputSchema: { type: 'object' }, execute: (args) => Object.keys(args) }]);
    assert.equal(await registry.call('echo', '{"zeta":1,"alpha":2,"mid":{"b":1,"a":2}}'), '["zeta","alpha","mid"]');
    assert.equal(await registry.call('echo', { b: 1, a: 2 }), '["b","a"]', 'an object is still taken');
  });

  it('a tool whose input is a string or an array is listed as one property, "input", and gets the value itself', async () => {
    const { registry, listed } = page([
      { name: 'shout', inputSchema: { type: 'string', description: 'what to shout' }, execute: (v) => v },
      { name: 'sum', inputSchema: '{"type":"array","items":{"type":"number"}}', execute: (v) => v.reduce((a, b) => a + b, 0) },
    ]);
    const { tools } = await listed;
    assert.deepEqual(tools.find((t) => t.name === 'shout').inputSchema, {
      type: 'object',
      description: 'the tool\'s whole input is "input"',
      properties: { input: { type: 'string', description: 'what to shout' } },
      required: ['input'],
    });
    assert.deepEqual(tools.find((t) => t.name === 'sum').inputSchema.properties.input, { type: 'array', items: { type: 'number' } });
    assert.ok(!tools.some((t) => t.schemaDropped), JSON.stringify(tools));
    assert.equal(await registry.call('sum', '{"input":[1,2,3]}'), '6');
    // The browser passes a tool only objects: said so, not its bare TypeError.
    await assert.rejects(registry.call('shout', '{"input":"hi"}'),
      /the browser's WebMCP passes a tool only an object or an array, and this tool's input schema asks for "string": the browser cannot run it/);
  });

  it('a tool the page no longer has: the answer names the tools it has now', async () => {
    const { registry } = page([
      { name: 'add-todo', inputSchema: { type: 'object' }, execute: () => 'ok' },
      { name: 'list-todos', inputSchema: { type: 'object' }, execute: () => 'ok' },
    ]);
    await assert.rejects(registry.call('remove-me', '{}'),
      { message: 'the page has no tool named remove-me any more — its tools now: add-todo, list-todos' });
  });
});
