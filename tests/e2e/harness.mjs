// Shared harness of the tabbridge end-to-end suite.
//
// Real parts only: the shim (bin/tabbridge) driven by the official MCP SDK
// client over stdio, headless Chromium launched by the shim with our
// extension, the host (bin/tabbridge-host) spawned by Chromium, and fixture
// pages served on 127.0.0.1. Nothing here sleeps as synchronisation: we wait
// for events or poll with a deadline (waitFor), and never assert on wall time.

import { after, afterEach, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export { McpError };

const HERE = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------
// Configuration

export const BUILD_DIR = path.resolve(process.env.TABBRIDGE_BUILD_DIR || path.resolve(HERE, '../../build'));
export const SHIM_PATH = path.join(BUILD_DIR, 'bin', 'tabbridge');
export const HOST_PATH = path.join(BUILD_DIR, 'bin', 'tabbridge-host');
export const BROWSER_PATH = process.env.TABBRIDGE_BROWSER || '/usr/bin/chromium';
export const BASE_BROWSER_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];
export const FIXTURES_DIR = path.join(HERE, 'fixtures');

// Deadlines (generous: a cold Chromium launch takes a few seconds).
export const LAUNCH_TIMEOUT_MS = 45_000; // connect_browser {launch:true}
export const CALL_TIMEOUT_MS = 15_000; // any other request
export const EVENT_TIMEOUT_MS = 10_000; // browser-side events reaching a session

// Tool names of the state machine (seed 000).
export const CORE_TOOLS = ['connect_browser', 'list_tabs', 'open_tab', 'focus_tab', 'close_tab'];
export const TOOLS_DISCONNECTED = ['connect_browser'];
export const TOOLS_NO_TABS = ['list_tabs', 'open_tab'];
export const TOOLS_TABS_UNFOCUSED = ['list_tabs', 'open_tab', 'focus_tab'];
export const TOOLS_FOCUSED_CORE = ['list_tabs', 'open_tab', 'focus_tab', 'close_tab'];

/** Throws a clear error (fast) when the build or the browser is missing. */
export function requireBuild() {
  const problems = [];
  for (const [what, p] of [
    ['MCP shim', SHIM_PATH],
    ['native host', HOST_PATH],
  ]) {
    try {
      fs.accessSync(p, fs.constants.X_OK);
    } catch {
      problems.push(`${what} binary not found (or not executable) at ${p}`);
    }
  }
  try {
    fs.accessSync(BROWSER_PATH, fs.constants.X_OK);
  } catch {
    problems.push(`browser not found at ${BROWSER_PATH} (set TABBRIDGE_BROWSER)`);
  }
  if (problems.length) {
    throw new Error(
      `${problems.join('; ')}. Build tabbridge first (e.g. cmake -B build && cmake --build build) ` +
        `or point TABBRIDGE_BUILD_DIR at a build directory containing bin/tabbridge and bin/tabbridge-host.`,
    );
  }
}

// ---------------------------------------------------------------------------
// Small utilities

function brief(value, max = 600) {
  let s;
  try {
    s = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    s = String(value);
  }
  if (s === undefined) s = String(value);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

const tick = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls fn until it returns a truthy value, and returns that value. fn may be
 * async; a throw counts as "not yet" (the last error is reported on timeout).
 * On timeout throws `Timed out after Nms waiting for <what>` with the last
 * value/error seen.
 */
export async function waitFor(fn, { timeoutMs = EVENT_TIMEOUT_MS, intervalMs = 50, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastValue;
  let lastError;
  for (;;) {
    try {
      lastValue = await fn();
      lastError = undefined;
      if (lastValue) return lastValue;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const detail = lastError
        ? `last error: ${lastError?.stack || lastError}`
        : `last value: ${brief(lastValue)}`;
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; ${detail}`);
    }
    await tick(intervalMs);
  }
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

// ---------------------------------------------------------------------------
// Fixture HTTP server (127.0.0.1 only)

const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

/** Serves tests/e2e/fixtures/ on 127.0.0.1:<ephemeral>. */
export async function startFixtureServer() {
  const server = http.createServer(async (req, res) => {
    const { pathname } = new URL(req.url, 'http://127.0.0.1');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const file = path.join(FIXTURES_DIR, path.normalize(decodeURIComponent(pathname)));
    if (!file.startsWith(FIXTURES_DIR + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await fsp.readFile(file);
      res.writeHead(200, {
        'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (p) => `${origin}${p.startsWith('/') ? p : `/${p}`}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------
// Processes (via /proc) — only ever processes this harness caused to exist

function readProc(pid, file) {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`);
  } catch {
    return null;
  }
}

function procState(pid) {
  const stat = readProc(pid, 'stat');
  if (!stat) return null; // gone
  const s = stat.toString();
  const close = s.lastIndexOf(')');
  const fields = s.slice(close + 2).split(' ');
  return { state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]) };
}

/** True while pid exists and is not a zombie. */
export function isAlive(pid) {
  const st = procState(pid);
  return !!st && st.state !== 'Z' && st.state !== 'X';
}

export function procCmdline(pid) {
  const b = readProc(pid, 'cmdline');
  return b ? b.toString().split('\0').filter(Boolean) : null;
}

export function procEnviron(pid) {
  const b = readProc(pid, 'environ');
  return b ? b.toString().split('\0').filter(Boolean) : null;
}

/**
 * Pids (other than ours) whose command line contains one of `markers`, or
 * whose environment has a variable whose value is one of them. Our markers
 * are unique temp dirs handed only to processes we spawned, so every match is
 * ours (the browser, its helpers and crashpad, the host Chrome spawned, the
 * shim).
 */
export function findProcsByMarkers(markers) {
  const hits = [];
  if (!markers.length) return hits;
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return hits;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid || pid === 1) continue;
    const cmd = readProc(pid, 'cmdline')?.toString() ?? '';
    let match = markers.some((m) => cmd.includes(m));
    if (!match) {
      const env = procEnviron(pid) ?? [];
      match = env.some((kv) => markers.some((m) => kv.endsWith(`=${m}`)));
    }
    if (match && isAlive(pid)) hits.push(pid);
  }
  return hits;
}

/** All live descendants of `roots` (by parent pid), roots excluded. */
export function findDescendants(roots) {
  const children = new Map();
  let entries = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    /* no /proc */
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const st = procState(Number(name));
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid).push(Number(name));
  }
  const out = [];
  const queue = [...roots];
  while (queue.length) {
    for (const c of children.get(queue.shift()) ?? []) {
      if (c === process.pid || out.includes(c)) continue;
      out.push(c);
      queue.push(c);
    }
  }
  return out.filter(isAlive);
}

function killQuietly(pid, signal = 'SIGKILL') {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGKILLs `pids` (their whole process group when a pid leads one) and every
 * process matching `markers`, then waits until all of them are gone.
 */
export async function killAndReap({ pids = [], markers = [], timeoutMs = 10_000 } = {}) {
  const targets = new Set();
  // Descendants first (collected before their parents die and they get reparented).
  for (const pid of findDescendants(pids.filter((p) => Number.isInteger(p) && p > 1 && p !== process.pid))) {
    killQuietly(pid);
    targets.add(pid);
  }
  for (const pid of pids) {
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    const st = procState(pid);
    if (!st) continue;
    if (st.pgrp === pid) killQuietly(-pid);
    killQuietly(pid);
    targets.add(pid);
  }
  // Twice: a dying browser may still have spawned a helper after the first scan.
  for (let round = 0; round < 2; round++) {
    for (const pid of findProcsByMarkers(markers)) {
      killQuietly(pid);
      targets.add(pid);
    }
    await waitFor(() => [...targets].every((pid) => !isAlive(pid)), {
      timeoutMs,
      intervalMs: 50,
      what: `processes ${[...targets].join(', ')} to exit after SIGKILL`,
    }).catch((err) => {
      process.stderr.write(`[e2e cleanup] ${err.message}\n`);
    });
  }
  return [...targets];
}

// Last resort when the test process ends without the after() hooks having run
// (a signal, an uncaught error): SIGKILL, synchronously, whatever still carries
// one of the live harnesses' markers.
const liveHarnesses = new Set();
let emergencyInstalled = false;
function installEmergencyCleanup() {
  if (emergencyInstalled) return;
  emergencyInstalled = true;
  const sweep = () => {
    const markers = [...liveHarnesses].flatMap((h) => h.markers());
    for (const pid of findProcsByMarkers(markers)) killQuietly(pid);
    for (const h of liveHarnesses) for (const dir of h.tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', sweep);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      sweep();
      process.exit(128 + (os.constants.signals[sig] ?? 1));
    });
  }
}

// ---------------------------------------------------------------------------
// DevTools HTTP endpoint: act on tabs "from the browser side", bypassing tabbridge

/** The --user-data-dir of a running browser, read from its command line. */
function userDataDirOf(pid) {
  const cmd = procCmdline(pid) ?? [];
  const arg = cmd.find((a) => a.startsWith('--user-data-dir='));
  return arg ? arg.slice('--user-data-dir='.length) : null;
}

/**
 * Port of the browser's DevTools endpoint. The browser must have been
 * launched with --remote-debugging-port=0; Chrome writes the chosen port as
 * the first line of <user-data-dir>/DevToolsActivePort.
 */
export async function devToolsPort({ profileDir, browserPid }) {
  const dirs = [];
  const fromCmd = browserPid ? userDataDirOf(browserPid) : null;
  if (fromCmd) dirs.push(fromCmd);
  if (profileDir && !dirs.includes(profileDir)) dirs.push(profileDir);
  return waitFor(
    () => {
      for (const d of dirs) {
        try {
          const port = Number(fs.readFileSync(path.join(d, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
          if (port > 0) return port;
        } catch {
          /* not written yet */
        }
      }
      return 0;
    },
    { timeoutMs: EVENT_TIMEOUT_MS, what: `DevToolsActivePort in ${dirs.join(' or ')} (was the browser launched with --remote-debugging-port=0?)` },
  );
}

async function devToolsRequest(port, pathAndQuery, method = 'GET') {
  const res = await fetch(`http://127.0.0.1:${port}${pathAndQuery}`, { method });
  const text = await res.text();
  if (!res.ok) throw new Error(`DevTools ${method} ${pathAndQuery} -> HTTP ${res.status}: ${text}`);
  return text;
}

/** Page targets of the browser (GET /json/list). */
export async function devToolsPages(port) {
  return JSON.parse(await devToolsRequest(port, '/json/list')).filter((t) => t.type === 'page');
}

/** Closes the page whose URL is exactly `url`, through DevTools (not tabbridge). */
export async function closeTabFromBrowser(port, url) {
  const target = await waitFor(async () => (await devToolsPages(port)).find((t) => t.url === url), {
    what: `a DevTools page target with url ${url}`,
  });
  await devToolsRequest(port, `/json/close/${target.id}`);
  await waitFor(async () => !(await devToolsPages(port)).some((t) => t.id === target.id), {
    what: `DevTools target ${target.id} (${url}) to disappear`,
  });
  return target.id;
}

/** Opens a page through DevTools (PUT /json/new), as a user would. */
export async function openTabFromBrowser(port, url) {
  const target = JSON.parse(await devToolsRequest(port, `/json/new?${url}`, 'PUT'));
  return target.id;
}

// ---------------------------------------------------------------------------
// Temp dirs

async function makeTempDir(prefix) {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  await fsp.chmod(dir, 0o700);
  return dir;
}

// ---------------------------------------------------------------------------
// Sessions: one shim + one SDK client

const STDERR_KEEP = 256 * 1024;

export class Session {
  constructor({ name, client, transport, socketDir, profileDir, logFile }) {
    this.name = name;
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
    this._waiters = new Set();
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
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout });
    if (name === 'connect_browser' && !result.isError && result.structuredContent?.connected) {
      this.lastConnect = result.structuredContent;
      const pid = result.structuredContent?.browser?.pid;
      if (Number.isInteger(pid)) this.browserPids.add(pid);
    }
    return result;
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

// ---------------------------------------------------------------------------
// Harness: owns the sessions, dirs and browsers of one describe() block

export class Harness {
  constructor() {
    this.sessions = [];
    this.tempDirs = [];
    this.servers = [];
    this.extraPids = new Set();
    this.logDir = process.env.TABBRIDGE_E2E_LOG_DIR || null;
    liveHarnesses.add(this);
    installEmergencyCleanup();
  }

  async tempDir(prefix) {
    const dir = await makeTempDir(prefix);
    this.tempDirs.push(dir);
    return dir;
  }

  async fixtureServer() {
    const server = await startFixtureServer();
    this.servers.push(server);
    return server;
  }

  /**
   * Spawns a shim and connects an SDK client to it.
   *   socketDir        reuse another session's socket dir (to attach to its browser)
   *   extraBrowserArgs appended to the standard headless flags
   */
  async startSession({ name, socketDir, profileDir, extraBrowserArgs = [], env = {} } = {}) {
    requireBuild();
    name ??= `session${this.sessions.length + 1}`;
    socketDir ??= await this.tempDir('tb-e2e-sock-');
    profileDir ??= await this.tempDir('tb-e2e-prof-');
    const transport = new StdioClientTransport({
      command: SHIM_PATH,
      args: [],
      env: {
        ...process.env,
        TABBRIDGE_BROWSER: BROWSER_PATH,
        TABBRIDGE_BROWSER_ARGS: [...BASE_BROWSER_ARGS, ...extraBrowserArgs].join(' '),
        TABBRIDGE_PROFILE_DIR: profileDir,
        TABBRIDGE_SOCKET_DIR: socketDir,
        ...env,
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'tabbridge-e2e', version: '0.0.0' }, { capabilities: {} });
    let logFile = null;
    if (this.logDir) {
      await fsp.mkdir(this.logDir, { recursive: true });
      logFile = path.join(this.logDir, `${process.pid}-${name}-${Date.now()}.stderr.log`);
    }
    const session = new Session({ name, client, transport, socketDir, profileDir, logFile });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => session._onListChanged());
    transport.stderr?.on('data', (chunk) => {
      const s = chunk.toString();
      session.stderr = (session.stderr + s).slice(-STDERR_KEEP);
      if (logFile) fs.appendFile(logFile, s, () => {});
    });
    this.sessions.push(session);
    await client.connect(transport);
    // Client.connect installed its own onclose (which fails pending requests); chain ours.
    const clientOnClose = transport.onclose;
    transport.onclose = () => {
      session.exited = true;
      clientOnClose?.();
    };
    return session;
  }

  /** Markers identifying every process spawned on behalf of this harness. */
  markers() {
    return [...this.tempDirs];
  }

  /** Prints the stderr tails of all sessions (used when a test failed). */
  dumpLogs(label) {
    for (const s of this.sessions) {
      const tail = s.stderr.slice(-8192);
      process.stderr.write(
        `\n----- stderr of shim "${s.name}" (pid ${s.pid ?? '?'})${label ? ` after failure of "${label}"` : ''}` +
          `${s.logFile ? `, full log: ${s.logFile}` : ''} -----\n${tail || '(empty)'}\n----- end -----\n`,
      );
    }
  }

  async cleanup() {
    await Promise.allSettled(this.sessions.map((s) => s.close()));
    const pids = new Set(this.extraPids);
    for (const s of this.sessions) {
      for (const p of s.browserPids) pids.add(p);
      if (s.pid) pids.add(s.pid);
    }
    await killAndReap({ pids: [...pids], markers: this.markers() });
    await Promise.allSettled(this.servers.map((srv) => srv.close()));
    for (const dir of this.tempDirs) {
      await fsp.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch((err) => {
        process.stderr.write(`[e2e cleanup] could not remove ${dir}: ${err.message}\n`);
      });
    }
    this.sessions = [];
    this.tempDirs = [];
    this.servers = [];
    liveHarnesses.delete(this);
  }
}

/**
 * Call inside describe(): checks the build before the block, cleans up after
 * it, prints the shims' stderr when a test fails. Returns the Harness.
 */
export function useHarness() {
  const h = new Harness();
  before(() => requireBuild());
  afterEach((t) => {
    if (t.passed === false) h.dumpLogs(t.name);
  });
  after(() => h.cleanup(), { timeout: 60_000 });
  return h;
}

/**
 * For describe() blocks whose tests are consecutive steps on one shared
 * state: once a step fails, the following steps are skipped rather than
 * failing with confusing follow-on errors.
 */
export function stepper() {
  let failed = null;
  return (fn) => async (t) => {
    if (failed) {
      t.skip(`an earlier step failed: ${failed}`);
      return;
    }
    try {
      await fn(t);
    } catch (err) {
      failed = t.name;
      throw err;
    }
  };
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
