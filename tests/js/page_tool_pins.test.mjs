// Every page tool reads pinned unless its definition says why not
// (stack/page_tool.js, docs/policy.md "Threat model"): a tool that reads or
// captures the page answers only from the document its site check passed
// for. Loads every tool module the worker registers (tools/registry.js) with
// a stand-in `chrome` that accepts whatever a module does at its top level,
// and reads each handler's pinning.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { PAGE_TOOLS } from '../../extension/worker/tool_catalog.js';

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

// The tools whose answer may rightly come from another document than the one
// checked: what they do instead. A tool missing here must be pinned.
const UNPINNED = {
  click: 'acts', type: 'acts', fill_form: 'acts', select_option: 'acts', hover: 'acts', scroll: 'acts',
  press_key: 'acts', drag: 'acts', upload_file: 'acts', emulate: 'acts', handle_dialog: 'acts',
  navigate: 'moves', evaluate: 'runs code', wait_for: 'waits', download_file: 'file decided at its URL',
  console_logs: 'log', network_errors: 'log', network_requests: 'log', network_request: 'log',
};

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
    }
  });

  it('a tool that reads or captures the page is pinned', () => {
    for (const [name, m] of Object.entries(modules)) {
      if (name in UNPINNED) continue;
      assert.notEqual(m.tool.pinning.mode, 'unpinned', `${name} reads unpinned: pin it, or give the reason in its definition and here`);
    }
    for (const name of ['snapshot', 'read_page', 'screenshot', 'save_pdf']) {
      assert.notEqual(modules[name].tool.pinning.mode, 'unpinned', name);
    }
  });

  it('an opt-out carries its reason, and only the listed tools opt out', () => {
    for (const [name, m] of Object.entries(modules)) {
      if (m.tool.pinning.mode !== 'unpinned') continue;
      assert.ok(name in UNPINNED, `${name} opted out of the pin: a new opt-out is reviewed here`);
      assert.ok(m.tool.pinning.reason.length >= 20, `${name}: the reason`);
    }
  });

  it('an opt-out without a reason does not define a tool', async () => {
    const { pageTool } = await import('../../extension/tools/stack/page_tool.js');
    assert.throws(() => pageTool(async () => ({}), { name: 'x', unpinned: '' }), /needs its reason/);
    assert.throws(() => pageTool(async () => ({}), { name: 'x', unpinned: 'a reason long enough to read', pinTop: 'tool' }), /exclude/);
    assert.equal(pageTool(async () => ({}), { name: 'x' }).pinning.mode, 'check');
  });
});
