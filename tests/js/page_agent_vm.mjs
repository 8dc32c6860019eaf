// Loads the page agent's classic scripts (extension/page/agent/, in
// agent_runner.js's injection order) into a fresh node:vm context, as
// chrome.scripting does into a page's isolated world, with a tiny DOM stub
// (h() below) for the parts that read elements. Not a test file itself.

import { readFileSync } from 'node:fs';
import vm from 'node:vm';

import { AGENT_FILES } from '../../extension/tools/stack/agent_call.js';

const extensionDir = new URL('../../extension/', import.meta.url);

// A context with the agent installed (times: how often to inject the files).
// Returns {agent, context, run(code)}.
export function loadAgent({ globals = {}, times = 1 } = {}) {
  const context = vm.createContext({ WeakRef, URL, ...globals });
  for (let i = 0; i < times; i++) injectAgent(context);
  return { agent: context.__tabbridgeAgent, context, run: (code) => vm.runInContext(code, context) };
}

// Runs the agent's files in context, as executeScript({files}) does.
export function injectAgent(context) {
  for (const file of AGENT_FILES) {
    vm.runInContext(readFileSync(new URL(file, extensionDir), 'utf8'), context, { filename: file });
  }
}

// ---- a tiny DOM: enough for roles, names and states ----------------------

const style = { display: 'block', visibility: 'visible', getPropertyValue: () => '' };
export const stubDocument = {
  defaultView: { getComputedStyle: (el) => ({ ...style, ...(el.style || {}) }) },
  byId: new Map(),
  getElementById(id) { return this.byId.get(id) ?? null; },
};

export function text(data) {
  return { nodeType: 3, data };
}

// h('button', {id: 'ok', 'aria-label': 'Go'}, [text('Go'), h('b', …)], {value: …})
export function h(tag, attrs = {}, children = [], props = {}) {
  const el = {
    nodeType: 1,
    localName: tag,
    ownerDocument: stubDocument,
    childNodes: children,
    parentElement: null,
    isContentEditable: false,
    labels: null,
    getAttribute: (name) => (name in attrs ? String(attrs[name]) : null),
    hasAttribute: (name) => name in attrs,
    getRootNode: () => stubDocument,
    closest: () => null,
    querySelector: () => null,
    ...props,
  };
  for (const c of children) if (c.nodeType === 1) c.parentElement = el;
  if (attrs.id) stubDocument.byId.set(attrs.id, el);
  return el;
}
