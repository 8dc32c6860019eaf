// The three MCP servers the side-by-side benches drive (peers.mjs, scale.mjs,
// tasks.mjs): how each is started and how each does the few things an agent
// does with a page — open a URL, take a snapshot, find an element's ref in it,
// click, type, fill a form, evaluate — each the way that server's own tools
// do it. Every server launches its own headless browser (TABBRIDGE_BROWSER,
// default /usr/bin/chromium) with a temporary profile.
//
// A Session is one MCP SDK client over stdio. It records every call and the
// text of its result (what the model reads), and fetches tools/list once at
// connect and again after every notifications/tools/list_changed, as Claude
// Code does: `lists` holds the byte size of each fetch.
//
// Install the peers once: (cd bench/peers && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci)
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_BROWSER_ARGS, benchPolicy } from './common.mjs';
import { unfold } from '../extension/tools/shared/snapshot_unfold.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const require = createRequire(path.join(repo, 'tests/e2e/package.json')); // the SDK is pinned there
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { ToolListChangedNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');

export const PEERS_DIR = path.join(here, 'peers/node_modules');
export const BROWSER = process.env.TABBRIDGE_BROWSER || '/usr/bin/chromium';
const peerVersion = (name) => JSON.parse(fs.readFileSync(path.join(PEERS_DIR, name, 'package.json'), 'utf8')).version;

export const bytes = (s) => Buffer.byteLength(s);
/** The text blocks of a result: what the model reads of it. */
export const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const resultBytes = (result) => result.content.filter((c) => c.type === 'text').reduce((n, c) => n + bytes(c.text), 0);

// Finds, in a snapshot's text, the ref of an element: each line is read as
// `role "name"` (lineOf: the server's notation) and must have the `role` and
// the `name` (a string: exactly; a RegExp: matching); `after` (a RegExp) first
// skips to the first line it matches, and `before` searches backwards from
// the first line matching it (an unnamed checkbox just before its label's
// text). refOf(line) reads a line's ref.
function finder(refOf, lineOf) {
  return (snapshot, { role, name, before, after } = {}) => {
    const lines = snapshot.split('\n');
    let from = 0;
    if (after) from = Math.max(0, lines.findIndex((l) => after.test(l)));
    const fits = (l) => {
      const element = lineOf(l);
      if (!element || element.role !== role || !refOf(l)) return false;
      if (name === undefined) return true;
      return typeof name === 'string' ? element.name === name : name.test(element.name ?? '');
    };
    if (before) {
      const anchor = lines.findIndex((l, i) => i >= from && before.test(l));
      for (let i = anchor; i >= from && anchor >= 0; i--) if (fits(lines[i])) return refOf(lines[i]);
      return undefined;
    }
    const line = lines.slice(from).find(fits);
    return line && refOf(line);
  };
}
const findDash = finder((l) => /\[ref=([^\]]+)\]/.exec(l)?.[1], (l) => dashLine(l));
const element = (match) => match && { role: match[1], name: match[2] };
// `- role "name"` (ours; Playwright's YAML, which quotes a line holding `: `) / `uid=1_2 role "name"` (chrome-devtools-mcp).
const dashLine = (l) => element(/^\s*- '?([\w-]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(l));
const uidLine = (l) => element(/^\s*uid=\S+ ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(l));

export class Session {
  constructor(def, tmp) {
    this.def = def;
    this.tmp = tmp;
    this.log = []; // {name, args, bytes, isError, ms, listBytes: the tools/list in force when it was made}
    this.lists = []; // byte size of each tools/list fetched
    // What a client that fetches at most once between two calls (whatever the
    // number of notifications in between) would have fetched: byte sizes.
    this.coalesced = [];
    this.changed = false;
    this.tools = []; // the latest list
    this.state = {}; // what a server keeps between calls (our browser's pid, chrome-devtools-mcp's pageId)
    this.counting = true; // false: calls the bench makes for itself (checks), left out of `log`
    this.fetching = Promise.resolve();
  }

  async connect(spawn) {
    this.transport = new StdioClientTransport({ ...spawn, stderr: process.env.BENCH_STDERR ? 'inherit' : 'ignore', cwd: this.tmp });
    this.client = new Client({ name: 'tabbridge-bench', version: '0' });
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.lastChange = Date.now();
      this.changed = true;
      // A notification just before close leaves a fetch the closed client rejects: not an error of the run.
      this.fetching = this.fetching.then(() => this.fetchTools()).catch((e) => { if (!this.closed) throw e; });
    });
    await this.client.connect(this.transport);
    await this.fetchTools();
    this.coalesced.push(this.lists[0]);
  }

  // Before a call (and at the end): the one fetch a coalescing client makes for the notifications since the last call.
  async coalesce() {
    await this.fetching;
    if (this.changed) this.coalesced.push(this.lists.at(-1));
    this.changed = false;
  }

  async fetchTools() {
    const { tools } = await this.client.listTools();
    this.tools = tools;
    this.lists.push(bytes(JSON.stringify(tools)));
  }

  /** Calls a tool; records it. Returns the result, error or not. */
  async call(name, args = {}) {
    if (this.counting) await this.coalesce();
    const t0 = performance.now();
    const listBytes = this.lists.at(-1); // the list the model chose this call from
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    if (this.counting) this.log.push({ name, args, bytes: resultBytes(result), isError: !!result.isError, ms: performance.now() - t0, listBytes });
    return result;
  }

  /** Calls a tool; throws when the result is an error. */
  async must(name, args = {}) {
    const result = await this.call(name, args);
    if (result.isError) throw new Error(`${this.def.name} ${name}: ${text(result).slice(0, 400)}`);
    return result;
  }

  /** Waits (up to timeoutMs) until the latest tools/list has a tool whose name matches re; returns its name. */
  async toolMatching(re, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.fetching;
      const tool = this.tools.find((t) => re.test(t.name));
      if (tool) return tool.name;
      if (Date.now() > deadline) throw new Error(`${this.def.name}: no tool ${re} in tools/list: ${this.tools.map((t) => t.name).join(', ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Runs fn with the calls it makes left out of `log`: the bench's own checks. */
  async aside(fn) {
    this.counting = false;
    try {
      return await fn();
    } finally {
      this.counting = true;
    }
  }

  /** Polls the page until `expression` (JavaScript) is truthy, through the server's evaluate, left out of `log`. */
  async until(expression, what, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    return this.aside(async () => {
      for (;;) {
        const value = await this.def.evaluate(this, expression).catch(() => null);
        if (value) return value;
        if (Date.now() > deadline) throw new Error(`${this.def.name}: timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  }

  /** Lets list_changed notifications that follow the last call arrive (quietMs without one) and their fetches end. */
  async settle(quietMs = 300) {
    const start = Date.now();
    while (Date.now() - Math.max(start, this.lastChange ?? 0) < quietMs) await new Promise((r) => setTimeout(r, 25));
    await this.coalesce();
  }

  async close() {
    this.closed = true;
    await this.client?.close().catch(() => {});
  }
}

/**
 * Starts `def` in a fresh temporary folder. options: caps (ours: --caps),
 * webmcp (the peers: turn on their WebMCP support and the browser's), tmp
 * (share a folder: a second session of ours on the same browser).
 */
export async function startSession(def, options = {}) {
  const tmp = options.tmp ?? fs.mkdtempSync(path.join(os.tmpdir(), `bench-${def.name}-`));
  const session = new Session(def, tmp);
  await session.connect(def.spawn(tmp, options));
  return session;
}

/** Ends a session: the client, our browser (it outlives the shim by design), the folder unless kept. */
export async function endSession(session, { keepTmp = false } = {}) {
  await session.close();
  const pid = session.state.browserPid;
  if (pid) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    for (let i = 0; i < 100; i++) {
      try { process.kill(pid, 0); } catch { break; }
      await new Promise((r) => setTimeout(r, 50));
    }
    session.state.browserPid = undefined;
  }
  if (!keepTmp) fs.rmSync(session.tmp, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
}

const tabbridge = {
  name: 'tabbridge',
  version: () => 'this tree',
  spawn(tmp, { build, caps = [], browserArgs = process.env.BENCH_TABBRIDGE_ARGS ?? BENCH_BROWSER_ARGS }) {
    fs.mkdirSync(path.join(tmp, 'sock'), { mode: 0o700, recursive: true });
    return {
      command: path.join(build, 'bin', 'tabbridge'),
      args: caps.length ? ['--caps', caps.join(',')] : [],
      env: {
        ...process.env,
        TABBRIDGE_BROWSER: BROWSER,
        TABBRIDGE_BROWSER_ARGS: browserArgs,
        TABBRIDGE_PROFILE_DIR: path.join(tmp, 'profile'),
        TABBRIDGE_SOCKET_DIR: path.join(tmp, 'sock'),
        // Every site allowed without asking: a bench has nobody to ask (docs/policy.md).
        TABBRIDGE_POLICY: benchPolicy(tmp),
      },
    };
  },
  // Only connect_browser is listed at first: it launches our browser, then open_tab.
  async open(s, url) {
    // Once per session: a second connect_browser is refused (already connected).
    s.state.browserPid ??= (await s.must('connect_browser', { launch: true })).structuredContent.browser.pid;
    const result = await s.must('open_tab', { url });
    s.state.tabId = result.structuredContent?.tab?.id;
    return result;
  },
  navigate(s, url) { return this.open(s, url); },
  // Another page in the same tab, once open() ran.
  goto: (s, url) => s.must('navigate', { url }),
  snapshot: (s, args = {}) => s.must('snapshot', args),
  // Folded runs (page/agent/fold.js) read as the lines they stand for.
  ref: (snapshot, query) => findDash(unfold(snapshot).join('\n'), query),
  click: (s, ref) => s.call('click', { ref }),
  type: (s, ref, text, { submit = false } = {}) => s.must('type', { ref, text, ...(submit ? { submit } : {}) }),
  // fields: [{ref, value}] (value: a string, or a boolean for a checkbox); submitRef clicks that after.
  fillForm: (s, fields, submitRef) => s.must('fill_form', { fields: fields.map(({ ref, value }) => ({ ref, value })), ...(submitRef ? { submitRef } : {}) }),
  // expression: JavaScript whose value is JSON; needs --caps eval. Answers {result, type}.
  async evaluate(s, expression) {
    return JSON.parse(text(await s.must('evaluate', { expression }))).result;
  },
  tabs: async (s) => (await s.must('list_tabs')).structuredContent.tabs.map((t) => t.url).join(', '),
};

const playwright = {
  name: 'playwright-mcp',
  version: () => peerVersion('@playwright/mcp'),
  spawn(tmp, { webmcp = false } = {}) {
    const args = [path.join(PEERS_DIR, '@playwright/mcp/cli.js'), '--headless', '--isolated', '--no-sandbox', '--executable-path', BROWSER];
    if (webmcp) {
      // Its WebMCP support needs a browser with the API; its config is the way to add a flag.
      const config = path.join(tmp, 'playwright-mcp.json');
      fs.writeFileSync(config, JSON.stringify({ browser: { launchOptions: { args: ['--enable-features=WebMCP'] } } }));
      args.push('--config', config);
    }
    return { command: process.execPath, args, env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } };
  },
  open: (s, url) => s.must('browser_navigate', { url }),
  navigate(s, url) { return this.open(s, url); },
  goto: (s, url) => s.must('browser_navigate', { url }),
  // Its actions write their snapshot to a file and answer its name: the
  // snapshot the model reads inline is this call's.
  snapshot: (s) => s.must('browser_snapshot'),
  ref: finder((l) => /\[ref=(\w+)\]/.exec(l)?.[1], dashLine), // e12; f1e12 after a navigation
  click: (s, ref, element) => s.call('browser_click', { element, target: ref }),
  type: (s, ref, text, { submit = false, element } = {}) =>
    s.must('browser_type', { element, target: ref, text, ...(submit ? { submit } : {}) }),
  fillForm: (s, fields) => s.must('browser_fill_form', {
    fields: fields.map(({ ref, name, type, value }) => ({ target: ref, name, type, value: String(value) })),
  }),
  async evaluate(s, expression) {
    const out = text(await s.must('browser_evaluate', { function: `() => (${expression})` }));
    return JSON.parse(/### Result\n([\s\S]*?)(\n### |$)/.exec(out)?.[1] ?? out);
  },
  tabs: async (s) => text(await s.must('browser_tabs', { action: 'list' })).replace(/\s+/g, ' '),
};

const chromeDevtools = {
  name: 'chrome-devtools-mcp',
  version: () => peerVersion('chrome-devtools-mcp'),
  spawn(tmp, { webmcp = false } = {}) {
    const args = [path.join(PEERS_DIR, 'chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'), '--headless', '--isolated',
      `--executablePath=${BROWSER}`, '--chromeArg=--no-sandbox', '--no-usage-statistics', '--no-performance-crux'];
    if (webmcp) args.push('--categoryExperimentalWebmcp', '--chromeArg=--enable-features=WebMCP');
    return { command: process.execPath, args, env: { ...process.env, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' } };
  },
  // Its page tools need a pageId: new_page answers the pages with theirs.
  async open(s, url) {
    const result = await s.must('new_page', { url });
    s.state.pageId = Number(/^(\d+): .*\[selected\]$/m.exec(text(result))?.[1]);
    return result;
  },
  // The browser's first page, as peers.mjs always loaded it (no second page: the memory figures).
  async navigate(s, url) {
    const pages = text(await s.must('list_pages'));
    s.state.pageId = Number(/(\d+):/.exec(pages)?.[1]);
    return s.must('navigate_page', { pageId: s.state.pageId, type: 'url', url });
  },
  goto: (s, url) => s.must('navigate_page', { pageId: s.state.pageId, type: 'url', url }),
  snapshot: (s) => s.must('take_snapshot', { pageId: s.state.pageId }),
  ref: finder((l) => /^\s*uid=(\S+)/.exec(l)?.[1], uidLine),
  click: (s, uid) => s.call('click', { pageId: s.state.pageId, uid }),
  // type_text types into the focused element: click the field first unless it has the focus.
  async type(s, uid, text, { submit = false, focused = false } = {}) {
    if (!focused) await s.must('click', { pageId: s.state.pageId, uid });
    return s.must('type_text', { pageId: s.state.pageId, text, ...(submit ? { submitKey: 'Enter' } : {}) });
  },
  fillForm: (s, fields) => s.must('fill_form', {
    pageId: s.state.pageId, elements: fields.map(({ ref, value }) => ({ uid: ref, value: String(value) })),
  }),
  async evaluate(s, expression) {
    const out = text(await s.must('evaluate_script', { pageId: s.state.pageId, function: `() => (${expression})` }));
    return JSON.parse(/```json\n([\s\S]*?)\n```/.exec(out)?.[1] ?? out);
  },
  tabs: async (s) => text(await s.must('list_pages')).replace(/\s+/g, ' '),
};

export const SERVERS = [tabbridge, playwright, chromeDevtools];

/** The servers BENCH_PEERS_ONLY names (comma-separated), or all; exits when a peer is wanted but not installed. */
export function chosenServers() {
  const only = process.env.BENCH_PEERS_ONLY?.split(',');
  const chosen = SERVERS.filter((s) => (only ? only.includes(s.name) : true));
  if (!fs.existsSync(PEERS_DIR) && chosen.some((s) => s.name !== 'tabbridge')) {
    console.error('peers not installed: (cd bench/peers && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci)');
    process.exit(2);
  }
  return chosen;
}
