// Every page tool reads pinned unless its definition says why not
// (stack/page_tool.js, docs/policy.md "Threat model"): a tool that reads or
// captures the page answers only from the document its site check passed
// for. Loads every tool module the worker registers (tools/registry.js) with
// a stand-in `chrome` that accepts whatever a module does at its top level,
// and reads each handler's pinning.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { OWN_TOOL_UNPINNED, PAGE_TOOLS } from '../../extension/worker/tool_catalog.js';

// A chrome.* that is every object and function at once: modules register
// listeners and read constants when imported; what they call never settles.
function anything() {
  const fn = function stub() { return proxy; };
  const never = () => proxy;
  const proxy = new Proxy(fn, {
    get: (target, key) => (key === 'then' ? never : key === Symbol.toPrimitive ? () => '' : proxy),
    apply: () => proxy,
    construct: () => proxy,
  });
  return proxy;
}

// What each tool reads, for the tools that must never opt out: their answer
// is the page's text or picture, so it comes from the checked document.
const READS_THE_DOCUMENT = ['snapshot', 'read_page', 'screenshot', 'save_pdf'];

describe('page tools are pinned unless they say why not', () => {
  let modules;
  before(async () => {
    globalThis.chrome = anything();
    ({ PAGE_TOOL_MODULES: modules } = await import('../../extension/tools/registry.js'));
  });

  it('every catalog tool has a module with a pinning', () => {
    assert.deepEqual(Object.keys(modules).sort(), Object.keys(PAGE_TOOLS).sort());
    for (const [name, m] of Object.entries(modules)) {
      assert.ok(['check', 'tool', 'unpinned'].includes(m.tool.pinning?.mode), `${name}: no pinning`);
      assert.equal(m.tool.toolName, name, `${name}: its pageTool is defined under another name (its catalog entry is not read)`);
    }
  });

  it('a tool that reads or captures the page is pinned', () => {
    for (const name of READS_THE_DOCUMENT) {
      assert.equal(PAGE_TOOLS[name].unpinned, null, `${name}: the catalog opts it out of the pin`);
      assert.notEqual(modules[name].tool.pinning.mode, 'unpinned', name);
    }
  });

  it('a tool is unpinned exactly when its catalog entry says why, and the reason names what keeps it safe', () => {
    for (const [name, m] of Object.entries(modules)) {
      const reason = PAGE_TOOLS[name].unpinned;
      assert.equal(m.tool.pinning.mode === 'unpinned', reason !== null, `${name}: pinning ${m.tool.pinning.mode}, catalog ${reason}`);
      if (reason === null) continue;
      assert.equal(m.tool.pinning.reason, reason, name);
      assert.match(reason, /input broker|provenance|decided at|reads nothing/,
        `${name}: the reason says which structure keeps the guarantee (the broker, provenance, a decision at its URL)`);
    }
  });

  it("a page's own tool is unpinned with the catalog's reason", async () => {
    const { pageTool } = await import('../../extension/tools/stack/page_tool.js');
    const own = pageTool(async () => ({}), { name: 'owntool.call', acts: true });
    assert.deepEqual(own.pinning, { mode: 'unpinned', reason: OWN_TOOL_UNPINNED });
  });

  it('a tool cannot opt out of the pin in its own definition', async () => {
    const { pageTool } = await import('../../extension/tools/stack/page_tool.js');
    assert.throws(() => pageTool(async () => ({}), { name: 'x', unpinned: 'a reason long enough to read' }), /declared in the catalog/);
    assert.throws(() => pageTool(async () => ({}), { name: 'snapshot', unpinned: 'a reason long enough to read' }), /declared in the catalog/);
    assert.equal(pageTool(async () => ({}), { name: 'x' }).pinning.mode, 'check');
    assert.equal(pageTool(async () => ({}), { name: 'x', pinTop: 'tool' }).pinning.mode, 'tool');
  });
});
