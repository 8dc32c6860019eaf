// Assertions on what a session shows: tool sets (exact, or the core tools of
// a focused state), structuredContent mirrored as text, list_changed counts
// (caused by a call, or by a browser-side event), the stable shape of
// list_tabs and of a whole session state; errorText() and brief() to word
// failures.

import assert from 'node:assert/strict';

import { CORE_TOOLS, EVENT_TIMEOUT_MS } from './config.mjs';

/** A value as at most `max` characters of text (JSON unless a string), for messages. */
export function brief(value, max = 600) {
  let s;
  try {
    s = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    s = String(value);
  }
  if (s === undefined) s = String(value);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

const sorted = (names) => [...names].sort();

/** Exact equality of a tool-name list, order-insensitive. */
export function assertToolSet(actual, expected, message) {
  assert.deepEqual(sorted(actual), sorted(expected), message ?? `tool list ${brief(actual)} != ${brief(expected)}`);
}

/**
 * For states with a focused tab (page tools may be present): which of the
 * five core tools are listed must be exactly `expectedCore`.
 */
export function assertCoreTools(actual, expectedCore, message) {
  const core = actual.filter((n) => CORE_TOOLS.includes(n));
  assert.deepEqual(
    sorted(core),
    sorted(expectedCore),
    message ?? `core tools of ${brief(actual)} should be exactly ${brief(expectedCore)}`,
  );
}

/** The message of an isError result (text blocks, else structuredContent.error). */
export function errorText(result) {
  const texts = (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text);
  if (texts.length) return texts.join('\n');
  return String(result?.structuredContent?.error ?? result?.structuredContent?.message ?? '');
}

/** structuredContent present, and the same JSON as a text content block. */
export function assertStructured(result, what = 'result') {
  assert.ok(
    result.structuredContent && typeof result.structuredContent === 'object',
    `${what} has no structuredContent: ${brief(result)}`,
  );
  const texts = (result.content ?? []).filter((c) => c.type === 'text');
  const same = texts.some((c) => {
    try {
      assert.deepEqual(JSON.parse(c.text), result.structuredContent);
      return true;
    } catch {
      return false;
    }
  });
  assert.ok(same, `${what}: no text content block carries the same JSON as structuredContent: ${brief(result)}`);
}

/**
 * For a change caused by a call: the call's response has just arrived, so the
 * session must already have exactly `total` list_changed (they are sent
 * before the response), and still exactly `total` after a round trip.
 */
export async function expectListChangedNow(session, total, what) {
  assert.equal(
    session.listChanged,
    total,
    `[${session.name}] ${what}: expected ${total} list_changed in total by the time the response arrived, have ${session.listChanged}`,
  );
  await session.barrier();
  assert.equal(
    session.listChanged,
    total,
    `[${session.name}] ${what}: expected exactly ${total} list_changed in total, have ${session.listChanged} after a tools/list round trip`,
  );
}

/**
 * For a change caused by an event the session did not request: wait for the
 * total to reach `total`, then check that no extra one follows it.
 */
export async function expectListChangedEventually(session, total, what, { timeoutMs = EVENT_TIMEOUT_MS } = {}) {
  await session.waitForListChanged(total, { timeoutMs });
  await session.barrier();
  assert.equal(
    session.listChanged,
    total,
    `[${session.name}] ${what}: expected exactly ${total} list_changed in total, have ${session.listChanged}`,
  );
}

/** The parts of list_tabs that must not move when nothing happened (titles may still be loading). */
export function tabsShape(listTabsResult) {
  return {
    focusedTabId: listTabsResult.focusedTabId,
    tabs: [...listTabsResult.tabs]
      .map((t) => ({ id: t.id, url: t.url, focused: t.focused }))
      .sort((x, y) => x.id - y.id),
  };
}

/** Everything observable about a session's state: tools, tabs, notification count. */
export async function snapshotState(session) {
  const tools = [...(await session.toolNames())].sort();
  const tabs = tabsShape(await session.listTabs());
  return { tools, tabs, listChanged: session.listChanged };
}
