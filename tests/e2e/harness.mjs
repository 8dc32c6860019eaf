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
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  LoggingMessageNotificationSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

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
const NODE_MODULES_DIR = path.join(HERE, 'node_modules');

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

/** Longest a held response (/hold, /slow.html) waits for release() before answering anyway. */
export const HOLD_MAX_MS = 10_000;

/**
 * The bytes /download/<name> serves: deterministic per name, 100,003 bytes
 * (not a round number, so a truncated or padded file shows).
 */
export function downloadBytes(name) {
  let seed = 0;
  for (const ch of name) seed = (seed * 31 + ch.charCodeAt(0)) >>> 0;
  const out = Buffer.alloc(100_003);
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    out[i] = seed >>> 24;
  }
  return out;
}

/** The credentials POST /login accepts. */
export const LOGIN = { user: 'alice', password: 'wonderland' };

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

function simplePage(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

/**
 * Serves tests/e2e/fixtures/ on 127.0.0.1:<ephemeral>, plus these routes:
 *
 *   /                    the shared bench fixture (fixtures/bench-fixture.html); /link/N: a page per link
 *   POST /login          user/password form: right → 303 /welcome?user=…, wrong → 303 /login.html?error=1
 *   /welcome?user=U      "Welcome, U!" (title "Welcome")
 *   /status/<code>       an HTML page answered with that HTTP status (title "Status <code>")
 *   /redirect?to=<path>  302 to <path>
 *   /download/<name>     downloadBytes(name), Content-Disposition: attachment
 *   /csp/<file>          fixtures/<file> with Content-Security-Policy: script-src 'self'
 *   /hold?key=K          answers "released K" once release(K) is called (or after HOLD_MAX_MS)
 *   /slow.html?key=K     sends the page's head at once and the rest once release(K) is called
 *   /no-content          204 No Content (a navigation there leaves the page where it was)
 *   /interrupt?to=P&key=K  sends a head whose script navigates to P while the rest is held until release(K)
 *   /search, /book, /subscribe  result pages of the form fixtures (flights, declarative-form,
 *                        late-form); what they received: queriesOf('/search')
 *   /node_modules/@mcp-b/global/<file>  that package's files from tests/e2e/node_modules (read-only)
 *
 * In .html files `{{NAME}}` is replaced by `vars.NAME` (vars is mutable: set
 * PEER_ORIGIN once the other server is up); unknown names are left alone.
 * Every request is recorded in `requests` ({method, path, query, body, time}).
 */
export async function startFixtureServer({ vars = {} } = {}) {
  const requests = [];
  const released = new Set();
  const holders = new Map(); // key -> [resolve]
  const waitRelease = (key) =>
    released.has(key)
      ? Promise.resolve('released')
      : new Promise((resolve) => {
          const timer = setTimeout(() => resolve('timeout'), HOLD_MAX_MS);
          const list = holders.get(key) ?? [];
          list.push((how) => {
            clearTimeout(timer);
            resolve(how);
          });
          holders.set(key, list);
        });
  const release = (key) => {
    released.add(key);
    for (const fn of holders.get(key) ?? []) fn('released');
    holders.delete(key);
  };
  const templated = (text) => text.replace(/\{\{(\w+)\}\}/g, (m, name) => (name in vars ? String(vars[name]) : m));

  const sendFile = async (req, res, file, extraHeaders = {}, root = FIXTURES_DIR) => {
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    let body;
    try {
      body = await fsp.readFile(file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(simplePage('Not found', '<h1>not found</h1>'));
      return;
    }
    if (path.extname(file) === '.html') body = Buffer.from(templated(body.toString('utf8')));
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      ...extraHeaders,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const { pathname, searchParams } = url;
    const record = { method: req.method, path: pathname, query: Object.fromEntries(searchParams), body: '', time: Date.now() };
    requests.push(record);
    const html = (status, title, body, headers = {}) =>
      res
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers })
        .end(req.method === 'HEAD' ? undefined : simplePage(title, body));

    if (req.method === 'POST' && pathname === '/login') {
      record.body = await readBody(req);
      const form = new URLSearchParams(record.body);
      record.form = Object.fromEntries(form);
      if (form.get('user') === LOGIN.user && form.get('password') === LOGIN.password) {
        res.writeHead(303, { location: `/welcome?user=${encodeURIComponent(form.get('user'))}` }).end();
      } else {
        res.writeHead(303, { location: '/login.html?error=1' }).end();
      }
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (pathname === '/') return sendFile(req, res, path.join(FIXTURES_DIR, 'bench-fixture.html'));
    let m;
    if ((m = /^\/link\/(\d+)$/.exec(pathname))) {
      return html(200, `Link ${m[1]}`, `<h1>Link page ${m[1]}</h1><p><a href="/">back</a></p>`);
    }
    if (pathname === '/welcome') {
      const user = searchParams.get('user') ?? 'stranger';
      return html(200, 'Welcome', `<h1 id="welcome">Welcome, ${escapeHtml(user)}!</h1><p>You are signed in.</p>`);
    }
    if ((m = /^\/status\/(\d{3})$/.exec(pathname))) {
      const code = Number(m[1]);
      return html(code, `Status ${code}`, `<h1>HTTP ${code}</h1><p id="status-page">This page answers ${code}.</p>`);
    }
    if (pathname === '/redirect') {
      res.writeHead(302, { location: searchParams.get('to') ?? '/a.html', 'cache-control': 'no-store' }).end();
      return;
    }
    if ((m = /^\/download\/([\w.-]+)$/.exec(pathname))) {
      const bytes = downloadBytes(m[1]);
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': bytes.length,
        'content-disposition': `attachment; filename="${m[1]}"`,
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : bytes);
      return;
    }
    if ((m = /^\/csp\/([\w.-]+)$/.exec(pathname))) {
      return sendFile(req, res, path.join(FIXTURES_DIR, m[1]), { 'content-security-policy': "script-src 'self'" });
    }
    if (pathname === '/hold') {
      const key = searchParams.get('key') ?? '';
      const how = await waitRelease(key);
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store', 'access-control-allow-origin': '*' });
      res.end(how === 'released' ? `released ${key}` : `timeout ${key}`);
      return;
    }
    if (pathname === '/search') {
      const q = (k) => escapeHtml(searchParams.get(k) ?? '');
      return html(200, `Flights ${searchParams.get('from') ?? ''} to ${searchParams.get('to') ?? ''}`,
        `<h1 id="results">Flights from ${q('from')} to ${q('to')} on ${q('depart')}</h1><p>${q('passengers')} passenger(s), ${q('cabin')}</p>`);
    }
    if (pathname === '/book') {
      return html(200, 'Table booked', `<h1 id="booked">Table booked for ${escapeHtml(searchParams.get('name') ?? '')}</h1>`);
    }
    if (pathname === '/subscribe') {
      return html(200, 'Subscribed', `<h1 id="subscribed">Subscribed ${escapeHtml(searchParams.get('email') ?? '')}</h1>`);
    }
    if ((m = /^\/node_modules\/(@mcp-b\/global\/[\w./-]+)$/.exec(pathname)) && !m[1].includes('..')) {
      return sendFile(req, res, path.join(NODE_MODULES_DIR, m[1]), {}, path.join(NODE_MODULES_DIR, '@mcp-b', 'global'));
    }
    if (pathname === '/no-content') {
      res.writeHead(204, { 'cache-control': 'no-store' }).end();
      return;
    }
    if (pathname === '/interrupt') {
      const key = searchParams.get('key') ?? '';
      const to = searchParams.get('to') ?? '/a.html';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      // The page moves on by itself while it is still loading (its load event never came).
      res.write(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Interrupting page</title>` +
        `<script>location.href = ${JSON.stringify(to)};</script></head><body><p>leaving</p>${' '.repeat(2048)}\n`);
      const how = await waitRelease(key);
      res.end(`<p>end (${how})</p></body></html>`);
      return;
    }
    if (pathname === '/slow.html') {
      const key = searchParams.get('key') ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      // Enough bytes that the browser commits and parses the head at once.
      res.write(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slow page</title></head><body><p id="start">start</p>${' '.repeat(2048)}\n`);
      const how = await waitRelease(key);
      res.end(`<p id="end">end (${how})</p></body></html>`);
      return;
    }
    let file;
    try {
      file = path.join(FIXTURES_DIR, path.normalize(decodeURIComponent(pathname)));
    } catch {
      res.writeHead(400).end();
      return;
    }
    return sendFile(req, res, file);
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
    /** The same server named by "localhost": another site than 127.0.0.1 (an out-of-process iframe). */
    localhostOrigin: `http://localhost:${port}`,
    vars,
    requests,
    /** The query of every GET to `pathname` so far, oldest first. */
    queriesOf: (pathname) => requests.filter((r) => r.method === 'GET' && r.path === pathname).map((r) => r.query),
    release,
    url: (p) => `${origin}${p.startsWith('/') ? p : `/${p}`}`,
    close: () =>
      new Promise((resolve) => {
        for (const key of [...holders.keys()]) release(key);
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** A 127.0.0.1 port nothing listens on (bound, then closed). */
export async function closedPort() {
  const srv = http.createServer();
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  return port;
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

/** Every target of the browser (pages, out-of-process iframes, workers…). */
export async function devToolsTargets(port) {
  return JSON.parse(await devToolsRequest(port, '/json/list'));
}

/** Closes a DevTools target by id (as the user closing the tab). */
export async function closeTargetFromBrowser(port, targetId) {
  await devToolsRequest(port, `/json/close/${targetId}`);
  await waitFor(async () => !(await devToolsPages(port)).some((t) => t.id === targetId), {
    what: `DevTools target ${targetId} to disappear`,
  });
}

// A minimal WebSocket client (RFC 6455, client side: masked text frames out,
// unmasked frames in, fragmentation, ping/pong, close) — enough to speak CDP
// to a target of the DevTools endpoint. Node 20 has no WebSocket global and
// the suite installs nothing but the MCP SDK.

function wsFrame(opcode, payload) {
  const len = payload.length;
  let header;
  if (len < 126) {
    header = Buffer.alloc(2);
    header[1] = 0x80 | len;
  } else if (len < 65536) {
    header = Buffer.alloc(4);
    header[1] = 0x80 | 126;
    header.writeUInt16BE(len, 2);
  } else {
    header = Buffer.alloc(10);
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(len), 2);
  }
  header[0] = 0x80 | opcode;
  const mask = crypto.randomBytes(4);
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = payload[i] ^ mask[i & 3];
  return Buffer.concat([header, mask, body]);
}

/**
 * A CDP connection to one DevTools target (`ws://127.0.0.1:<port>/devtools/…`).
 * `send(method, params)` resolves with the result or rejects with the error;
 * every request has a deadline.
 */
export class CdpConnection {
  static async open(wsUrl, { timeoutMs = CALL_TIMEOUT_MS } = {}) {
    const c = new CdpConnection(timeoutMs);
    await c._connect(wsUrl);
    return c;
  }

  constructor(timeoutMs) {
    this.timeoutMs = timeoutMs;
    this.nextId = 1;
    this.pending = new Map();
    this.buf = Buffer.alloc(0);
    this.fragments = [];
    this.closed = false;
  }

  _connect(wsUrl) {
    const u = new URL(wsUrl);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.sock?.destroy();
        reject(new Error(`CDP: no WebSocket handshake from ${wsUrl} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      let upgraded = false;
      this.sock = net.connect(Number(u.port), u.hostname, () => {
        this.sock.write(
          `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
      this.sock.on('data', (chunk) => {
        this.buf = Buffer.concat([this.buf, chunk]);
        if (!upgraded) {
          const end = this.buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = this.buf.subarray(0, end).toString();
          this.buf = this.buf.subarray(end + 4);
          clearTimeout(timer);
          if (!/^HTTP\/1\.1 101/.test(head)) {
            this.sock.destroy();
            reject(new Error(`CDP: ${wsUrl} refused the WebSocket upgrade: ${head.split('\r\n')[0]}`));
            return;
          }
          upgraded = true;
          resolve();
        }
        this._parse();
      });
      const fail = (why) => {
        clearTimeout(timer);
        this.closed = true;
        for (const { reject: rej, timer: t } of this.pending.values()) {
          clearTimeout(t);
          rej(new Error(`CDP connection closed (${why})`));
        }
        this.pending.clear();
        if (!upgraded) reject(new Error(`CDP: cannot connect to ${wsUrl}: ${why}`));
      };
      this.sock.on('error', (err) => fail(err.message));
      this.sock.on('close', () => fail('socket closed'));
    });
  }

  _parse() {
    for (;;) {
      if (this.buf.length < 2) return;
      const b0 = this.buf[0];
      const b1 = this.buf[1];
      let len = b1 & 0x7f;
      let off = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        len = Number(this.buf.readBigUInt64BE(2));
        off = 10;
      }
      const masked = (b1 & 0x80) !== 0;
      const maskKey = masked ? this.buf.subarray(off, off + 4) : null;
      if (masked) off += 4;
      if (this.buf.length < off + len) return;
      let payload = Buffer.from(this.buf.subarray(off, off + len));
      this.buf = this.buf.subarray(off + len);
      if (maskKey) for (let i = 0; i < payload.length; i++) payload[i] ^= maskKey[i & 3];
      const opcode = b0 & 0x0f;
      if (opcode === 0x8) {
        this.sock.end();
        return;
      }
      if (opcode === 0x9) {
        this.sock.write(wsFrame(0xa, payload));
        continue;
      }
      if (opcode === 0xa) continue;
      this.fragments.push(payload);
      if ((b0 & 0x80) === 0) continue;
      payload = Buffer.concat(this.fragments);
      this.fragments = [];
      let msg;
      try {
        msg = JSON.parse(payload.toString('utf8'));
      } catch {
        continue;
      }
      const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
      if (!p) continue; // an event: we subscribe to none
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new Error(`CDP ${p.method}: ${msg.error.message} (${msg.error.code})`));
      else p.resolve(msg.result);
    }
  }

  send(method, params = {}) {
    if (this.closed) return Promise.reject(new Error(`CDP ${method}: connection closed`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`CDP ${method}: no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer, method });
      this.sock.write(wsFrame(0x1, Buffer.from(JSON.stringify({ id, method, params }))));
    });
  }

  /** Runtime.evaluate in the target's main world; awaits promises; returns the value (JSON). */
  async evaluate(expression) {
    const r = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw new Error(`CDP evaluate threw: ${d.exception?.description ?? d.text} (expression: ${brief(expression, 200)})`);
    }
    return r.result.value;
  }

  close() {
    this.closed = true;
    try {
      this.sock.write(wsFrame(0x8, Buffer.alloc(0)));
    } catch {
      /* gone */
    }
    this.sock.destroy();
  }
}

/** The WebSocket URL of a DevTools target. */
export function targetWsUrl(port, target) {
  return target.webSocketDebuggerUrl || `ws://127.0.0.1:${port}/devtools/page/${target.id}`;
}

/** One Runtime.evaluate on a target, over a short-lived CDP connection. */
export async function cdpEvaluate(wsUrl, expression, opts) {
  const c = await CdpConnection.open(wsUrl, opts);
  try {
    return await c.evaluate(expression);
  } finally {
    c.close();
  }
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
  constructor({ name, client, transport, socketDir, profileDir, homeDir, stateDir, logFile }) {
    this.name = name;
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

  /**
   * tools/call with a progress callback: the SDK then sends a progressToken
   * and calls onprogress for each notifications/progress.
   */
  async callWithProgress(name, args, onprogress, { timeoutMs = CALL_TIMEOUT_MS } = {}) {
    return this.client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs, onprogress });
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

  async fixtureServer(opts) {
    const server = await startFixtureServer(opts);
    this.servers.push(server);
    return server;
  }

  /**
   * Spawns a shim and connects an SDK client to it.
   *   socketDir        reuse another session's socket dir (to attach to its browser)
   *   extraBrowserArgs appended to the standard headless flags
   */
  async startSession({
    name,
    socketDir,
    profileDir,
    extraBrowserArgs = [],
    env = {},
    shimArgs = [],
    isolatedHome = false,
  } = {}) {
    requireBuild();
    name ??= `session${this.sessions.length + 1}`;
    socketDir ??= await this.tempDir('tb-e2e-sock-');
    profileDir ??= await this.tempDir('tb-e2e-prof-');
    // A fresh HOME keeps the browser's Downloads folder (and anything else it
    // writes under ~) inside the test's temp dirs.
    const homeDir = isolatedHome ? await this.tempDir('tb-e2e-home-') : null;
    // The policy and the audit log (docs/policy.md) stay the test's own: no
    // policy file unless a test writes one, and no line in the user's audit log.
    const stateDir = await this.tempDir('tb-e2e-state-');
    const transport = new StdioClientTransport({
      command: SHIM_PATH,
      args: shimArgs,
      env: {
        ...process.env,
        ...(homeDir ? { HOME: homeDir, XDG_CONFIG_HOME: path.join(homeDir, '.config') } : {}),
        TABBRIDGE_BROWSER: BROWSER_PATH,
        TABBRIDGE_BROWSER_ARGS: [...BASE_BROWSER_ARGS, ...extraBrowserArgs].join(' '),
        TABBRIDGE_PROFILE_DIR: profileDir,
        TABBRIDGE_SOCKET_DIR: socketDir,
        TABBRIDGE_POLICY: path.join(stateDir, 'policy.json'),
        XDG_STATE_HOME: stateDir,
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
    const session = new Session({ name, client, transport, socketDir, profileDir, homeDir, stateDir, logFile });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => session._onListChanged());
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => session.messages.push(n.params));
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
