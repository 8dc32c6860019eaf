// Helpers of the own-tools suites (own_tools_*.test.mjs): the page's own
// tools (WebMCP, forms) as the model sees them — docs/protocol.md "The page's
// own tools" and the contract of issue 7:
//   * WebMCP tools (native, polyfill, legacy, declarative) are named
//     webmcp_{site}_page{idx}_{tool}: 127.0.0.1:PORT → localhost_PORT, the
//     tool's name with every character outside [A-Za-z0-9_] as '_', {idx} the
//     tab's 0-based position in list_tabs; at most 48 characters;
//   * descriptions start "[WebMCP • localhost:PORT • Page N] " (forms:
//     "[Form • …] ", result lists: "[Results • …] ") and mark the text as
//     untrusted page text;
//   * list_webmcp_tools / call_webmcp_tool are there whenever a tab is focused.

import assert from 'node:assert/strict';

import { CALL_TIMEOUT_MS, EVENT_TIMEOUT_MS, McpError, errorText, waitFor } from './harness.mjs';
import { TABBRIDGE_TOOLS, allText } from './page_helpers.mjs';

export const TAB_TOOLS = ['list_tabs', 'open_tab', 'focus_tab', 'close_tab'];
export const META_TOOLS = ['list_webmcp_tools', 'call_webmcp_tool'];
/** Every name tabbridge itself may list (any caps; generated from the catalog): a page's own tool is none of these. */
export const GENERIC_TOOLS = new Set(TABBRIDGE_TOOLS);
export const MAX_TOOL_NAME_CHARS = 48;
export const MAX_LISTED_PAGE_TOOLS = 24;
export const MAX_FORM_TOOLS = 8;

const brief = (v, max = 600) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s && s.length > max ? `${s.slice(0, max)}…` : s;
};

/** `add-todo` → `add_todo` (seed 001 §3). */
export const sanitize = (name) => name.replace(/[^A-Za-z0-9_]/g, '_');

/** The MCP name of a WebMCP tool of a page on the fixture server (short enough not to be hashed). */
export function webmcpName(port, pageIdx, tool) {
  return `webmcp_localhost_${port}_page${pageIdx}_${sanitize(tool)}`;
}

/** "[WebMCP • localhost:PORT • Page N] " */
export const webmcpPrefix = (port, pageIdx) => `[WebMCP • localhost:${port} • Page ${pageIdx}] `;
/** "[Form • localhost:PORT • Page N] " */
export const formPrefix = (port, pageIdx) => `[Form • localhost:${port} • Page ${pageIdx}] `;
/** "[Results • localhost:PORT • Page N] " */
export const resultsPrefix = (port, pageIdx) => `[Results • localhost:${port} • Page ${pageIdx}] `;

/** tools/list → the whole tool objects. */
export async function listTools(s) {
  const { tools } = await s.client.listTools(undefined, { timeout: CALL_TIMEOUT_MS });
  return tools;
}

/** The page's own tools among a tools/list answer (everything tabbridge itself does not name). */
export const ownOf = (tools) => tools.filter((t) => !GENERIC_TOOLS.has(t.name));

/** The own tools' names of the session's tools/list, sorted. */
export async function ownNames(s) {
  return ownOf(await listTools(s))
    .map((t) => t.name)
    .sort();
}

/** The 0-based position of a tab in list_tabs (the {idx} of its tools' names). */
export async function pageIndex(s, tabId) {
  const { tabs } = await s.listTabs();
  const i = tabs.findIndex((t) => t.id === tabId);
  assert.ok(i >= 0, `tab ${tabId} is not in list_tabs: ${brief(tabs)}`);
  return i;
}

/**
 * Polls tools/list until the own tools' names are exactly `expected` (any
 * order); returns the own tool objects. Fails with the last list seen.
 */
export async function waitOwnNames(s, expected, what, { timeoutMs = EVENT_TIMEOUT_MS } = {}) {
  const want = JSON.stringify([...expected].sort());
  return waitOwn(s, (own) => JSON.stringify(own.map((t) => t.name).sort()) === want, `${what} (want ${want})`, { timeoutMs });
}

/** Polls tools/list until `pred(ownTools)` is truthy; returns the own tools. */
export async function waitOwn(s, pred, what, { timeoutMs = EVENT_TIMEOUT_MS } = {}) {
  let last = null;
  try {
    return await waitFor(
      async () => {
        const own = ownOf(await listTools(s));
        last = own.map((t) => t.name).sort();
        return pred(own) ? own : null;
      },
      { timeoutMs, what },
    );
  } catch (err) {
    assert.fail(`[${s.name}] ${what}: last tools/list own tools ${brief(last)} (${err.message.split(';')[0]})`);
  }
}

/** Polls list_tabs until each tab id in `counts` has that toolCount; returns the list_tabs answer. */
export async function waitToolCounts(s, counts, what) {
  let last = null;
  try {
    return await waitFor(
      async () => {
        last = await s.listTabs();
        return Object.entries(counts).every(([id, n]) => last.tabs.find((x) => x.id === Number(id))?.toolCount === n) ? last : null;
      },
      { what },
    );
  } catch (err) {
    assert.fail(`[${s.name}] ${what}: last list_tabs ${brief(last, 1500)} (${err.message.split(';')[0]})`);
  }
}

/** list_webmcp_tools {} → its structuredContent. */
export async function webmcpList(s) {
  return s.callOk('list_webmcp_tools', {});
}

/** Polls list_webmcp_tools until `pred(sc)` is truthy; returns the structuredContent. */
export async function waitWebmcpList(s, pred, what, { timeoutMs = EVENT_TIMEOUT_MS } = {}) {
  let last = null;
  try {
    return await waitFor(
      async () => {
        last = await webmcpList(s);
        return pred(last) ? last : null;
      },
      { timeoutMs, what },
    );
  } catch (err) {
    assert.fail(`[${s.name}] ${what}: last list_webmcp_tools ${brief(last, 1500)} (${err.message.split(';')[0]})`);
  }
}

/**
 * tools/call that must answer a result (not a JSON-RPC error, not a hang)
 * with isError: true; returns [result, message].
 */
export async function callExpectingToolError(s, name, args, what) {
  let result;
  try {
    result = await s.call(name, args);
  } catch (err) {
    if (err instanceof McpError) {
      assert.fail(`${what}: ${name} answered a JSON-RPC error ${err.code} (${err.message}) instead of an isError result`);
    }
    throw err;
  }
  assert.equal(result.isError, true, `${what}: ${name}(${brief(args)}) should be isError, got ${brief(result, 1200)}`);
  return [result, errorText(result)];
}

/** The items of the todo list (#todos li), read through DevTools. */
export const todosOf = (tab) => tab.eval(`[...document.querySelectorAll('#todos li')].map((li) => li.textContent)`);

export { allText };
