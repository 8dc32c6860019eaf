// A session: one shim driven by one MCP SDK client (the Harness spawns both).
// Counts notifications/tools/list_changed and keeps notifications/message and
// the shim's stderr; call / callOk / callErr / pageOk / pageErr check the
// result's shape as they return it. Also launchBrowser() and
// waitForTabTitle().

import assert from 'node:assert/strict';

import { McpError } from '@modelcontextprotocol/sdk/types.js';

import { assertStructured, brief, errorText } from './asserts.mjs';
import { CALL_TIMEOUT_MS, EVENT_TIMEOUT_MS, LAUNCH_TIMEOUT_MS } from './config.mjs';
import { waitFor } from './wait.mjs';

export { McpError };

/** How much of a shim's stderr a Session keeps (the tail). */
export const STDERR_KEEP = 256 * 1024;

export class Session {
  constructor({ name, client, transport, socketDir, profileDir, homeDir, stateDir, logFile, sdk = 'v1' }) {
    this.name = name;
    this.sdk = sdk; // 'v1' or 'v1-2025-06-18' (@modelcontextprotocol/sdk 1.32 / 1.23) or 'v2' (@modelcontextprotocol/client)
    this.protocolVersion = null; // a 1.x session: the revision initialize settled on
    this.subscription = null; // the subscriptions/listen stream a v2 (2026-07-28) session opened
    this.stateDir = stateDir; // XDG_STATE_HOME of the shim (and its browser's host): the audit log is there
    this.homeDir = homeDir; // HOME of the shim (and so of the browser it launches, and the host)
    this.client = client;
    this.transport = transport;
    this.socketDir = socketDir;
    this.profileDir = profileDir;
    this.logFile = logFile;
    this.listChanged = 0; // notifications/tools/list_changed received so far
    this.stderr = '';
    this.exited = false;
    this.browserPids = new Set(); // browser pids this session's connect_browser reported
    this.lastConnect = null; // last successful connect_browser structuredContent
    this.messages = []; // params of every notifications/message received
    this.roots = null; // the directories the client answers roots/list with (startSession's roots)
    this.rootsAsked = 0; // roots/list requests the shim sent
    this._waiters = new Set();
  }

  /** Replaces the client's roots and tells the server (notifications/roots/list_changed). */
  async setRoots(dirs) {
    this.roots = [...dirs];
    await this.client.sendRootsListChanged();
  }

  get pid() {
    return this.transport.pid;
  }

  _onListChanged() {
    this.listChanged++;
    for (const w of this._waiters) w();
  }

  /** Resolves once at least n list_changed notifications have arrived in total. */
  async waitForListChanged(n, { timeoutMs = EVENT_TIMEOUT_MS } = {}) {
    if (this.listChanged >= n) return this.listChanged;
    await new Promise((resolve, reject) => {
      const check = () => {
        if (this.listChanged >= n) {
          cleanup();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `[${this.name}] timed out after ${timeoutMs} ms waiting for list_changed #${n} (have ${this.listChanged})`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this._waiters.delete(check);
      };
      this._waiters.add(check);
    });
    return this.listChanged;
  }

  /** tools/list → names, in the server's order. */
  async toolNames({ timeoutMs = CALL_TIMEOUT_MS } = {}) {
    const { tools } = await this.client.listTools(undefined, { timeout: timeoutMs });
    return tools.map((t) => t.name);
  }

  /**
   * A round trip through whatever serves tools/list (the host when connected,
   * the shim when not): every notification sent before it has been counted
   * once it returns.
   */
  async barrier() {
    await this.toolNames();
  }

  /** tools/call → the raw CallToolResult. */
  async call(name, args = {}, { timeoutMs } = {}) {
    const timeout = timeoutMs ?? (name === 'connect_browser' && args?.launch ? LAUNCH_TIMEOUT_MS : CALL_TIMEOUT_MS);
    const result = await this._callTool({ name, arguments: args }, { timeout });
    if (name === 'connect_browser' && !result.isError && result.structuredContent?.connected) {
      this.lastConnect = result.structuredContent;
      const pid = result.structuredContent?.browser?.pid;
      if (Number.isInteger(pid)) this.browserPids.add(pid);
    }
    return result;
  }

  /**
   * tools/call with a progress callback: the SDK then sends a progressToken
   * and calls onprogress for each notifications/progress.
   */
  async callWithProgress(name, args, onprogress, { timeoutMs = CALL_TIMEOUT_MS } = {}) {
    return this._callTool({ name, arguments: args }, { timeout: timeoutMs, onprogress });
  }

  /** tools/call through either SDK (1.x takes a result schema before the options). */
  _callTool(params, options) {
    return this.sdk === 'v2' ? this.client.callTool(params, options) : this.client.callTool(params, undefined, options);
  }

  /**
   * Calls a page tool that must succeed (no isError, a non-empty content
   * array); returns the whole CallToolResult (page tools need not carry
   * structuredContent).
   */
  async pageOk(name, args = {}, opts) {
    const result = await this.call(name, args, opts);
    assert.notEqual(
      result.isError,
      true,
      `[${this.name}] ${name}(${brief(args, 300)}) failed: ${brief(errorText(result), 1500)}`,
    );
    assert.ok(
      Array.isArray(result.content) && result.content.length > 0,
      `[${this.name}] ${name}(${brief(args, 300)}) answered no content blocks: ${brief(result)}`,
    );
    return result;
  }

  /** Calls a page tool that must fail as a tool result; returns [result, its message]. */
  async pageErr(name, args = {}, opts) {
    const result = await this.callErr(name, args, opts);
    return [result, errorText(result)];
  }

  /** Calls a tool that must succeed; returns its structuredContent. */
  async callOk(name, args = {}, opts) {
    const result = await this.call(name, args, opts);
    assert.notEqual(
      result.isError,
      true,
      `[${this.name}] ${name}(${brief(args)}) failed: ${errorText(result)} ${brief(result.structuredContent)}`,
    );
    assertStructured(result, `${name}(${brief(args)})`);
    return result.structuredContent;
  }

  /** Calls a tool that must fail as a tool result (isError: true); returns the result. */
  async callErr(name, args = {}, opts) {
    const result = await this.call(name, args, opts);
    assert.equal(result.isError, true, `[${this.name}] ${name}(${brief(args)}) should fail, got ${brief(result)}`);
    const text = errorText(result);
    assert.ok(text.trim().length > 0, `[${this.name}] ${name}(${brief(args)}) failed without a message: ${brief(result)}`);
    return result;
  }

  /** list_tabs → {tabs, focusedTabId}. */
  async listTabs() {
    return this.callOk('list_tabs');
  }

  async close() {
    try {
      await this.client.close();
    } catch {
      /* already gone */
    }
  }
}

/** Connects a fresh session with launch:true; returns its structuredContent. */
export async function launchBrowser(session) {
  return session.callOk('connect_browser', { launch: true });
}

/** Polls list_tabs until tab `id` has `title`; returns that list_tabs result. */
export async function waitForTabTitle(session, id, title, { timeoutMs = EVENT_TIMEOUT_MS } = {}) {
  return waitFor(
    async () => {
      const r = await session.listTabs();
      return r.tabs.find((t) => t.id === id)?.title === title ? r : null;
    },
    { timeoutMs, what: `[${session.name}] list_tabs to show tab ${id} titled "${title}"` },
  );
}
