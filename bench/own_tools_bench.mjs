// The page's own tools against the generic ones, through the real chain (MCP
// SDK → shim → host → extension → headless Chromium with native WebMCP) on
// tests/e2e/fixtures/webmcp-todo.html. One task done both ways — add three
// todos and read them back:
//   A. the page's WebMCP tools: webmcp_…_add_todo ×3 + webmcp_…_list_todos;
//   B. snapshot, then type + click "Add" per item, then snapshot to read back.
// For each way: tool calls, bytes the model reads (tool results' text plus the
// tools/list it needed), and the p50/p95 latency of one call (n = BENCH_OWN_RUNS,
// default 30); also how long after open_tab the page's tools are listed
// (BENCH_OWN_OPENS opens, default 10). Prints figures; never passes or fails on time.
// Usage: node bench/own_tools_bench.mjs [buildDir]
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchShim, endBench } from './common.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const require = createRequire(path.join(repo, 'tests/e2e/package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const build = path.resolve(process.argv[2] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const runs = Number(process.env.BENCH_OWN_RUNS || 30);
const fixtures = path.join(repo, 'tests/e2e/fixtures');
const ITEMS = ['buy milk', 'call the plumber', 'water the plants'];

const server = http.createServer((req, res) => {
  const name = new URL(req.url, 'http://x').pathname.slice(1);
  const file = path.join(fixtures, name);
  if (!/^[\w.-]+$/.test(name) || !fs.existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': name.endsWith('.js') ? 'text/javascript' : 'text/html', 'cache-control': 'no-store' });
  res.end(fs.readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const { tmp, shim } = benchShim(build, 'tb-bench-own-');
const transport = new StdioClientTransport({ ...shim, args: [] });
const client = new Client({ name: 'tabbridge-bench-own', version: '0' });
await client.connect(transport);

const bytes = (v) => Buffer.byteLength(typeof v === 'string' ? v : JSON.stringify(v));
const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const call = async (name, args = {}) => {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  if (result.isError) throw new Error(`${name}: ${text(result)}`);
  return result;
};
/** Polls fn (no sleeps as synchronisation elsewhere: this is a deadline). */
const poll = async (fn, what, timeoutMs = 20_000, intervalMs = 50) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
};
const quantiles = (samples) => {
  samples.sort((a, b) => a - b);
  const q = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))].toFixed(2);
  return `p50 ${q(0.5)} ms / p95 ${q(0.95)} ms (n=${samples.length})`;
};
const time = async (fn) => {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return quantiles(samples);
};

/** Opens the todo page focused; waits for its WebMCP tools; returns {tools, add, list, tabId, listedMs}. */
let opened = 0;
const openTodo = async () => {
  const tabId = (await call('open_tab', { url: `${origin}/webmcp-todo.html?run=${++opened}` })).structuredContent?.tab?.id;
  const t0 = process.hrtime.bigint();
  const found = await poll(async () => {
    const { tools } = await client.listTools();
    const add = tools.find((t) => /^webmcp_.*_add_todo$/.test(t.name));
    const list = tools.find((t) => /^webmcp_.*_list_todos$/.test(t.name));
    return add && list ? { tools, add: add.name, list: list.name } : null;
  }, 'the todo page tools in tools/list', 20_000, 20);
  return { ...found, tabId, listedMs: Number(process.hrtime.bigint() - t0) / 1e6 };
};

let browserPid = 0;
try {
  browserPid = (await call('connect_browser', { launch: true })).structuredContent.browser.pid;

  // A. The page's own tools.
  const a = await openTodo();
  const ownShare = bytes(a.tools.filter((t) => t.name.startsWith('webmcp_')));
  const aList = bytes(a.tools);
  let aCalls = 0;
  let aRead = 0;
  for (const item of ITEMS) {
    aRead += bytes(text(await call(a.add, { text: item })));
    aCalls++;
  }
  const aBack = text(await call(a.list));
  aCalls++;
  aRead += bytes(aBack);
  if (!ITEMS.every((i) => aBack.includes(i))) throw new Error(`list_todos did not read the items back: ${aBack}`);
  const aLatency = await time(() => call(a.list));
  const addLatency = await time(() => call(a.add, { text: 'bench item' }));

  // B. snapshot + type + click on a fresh copy of the page.
  const b = await openTodo();
  const bList = bytes(b.tools.filter((t) => !t.name.startsWith('webmcp_'))); // the generic tools only
  let bCalls = 0;
  let bRead = 0;
  const snap = text(await call('snapshot'));
  bCalls++;
  bRead += bytes(snap);
  const ref = (re) => {
    const m = snap.split('\n').find((l) => re.test(l))?.match(/\[ref=([^\]]+)\]/);
    if (!m) throw new Error(`no ${re} with a ref in the snapshot:\n${snap}`);
    return m[1];
  };
  const field = ref(/textbox.*New todo/);
  const addButton = ref(/button.*"Add"/);
  for (const item of ITEMS) {
    bRead += bytes(text(await call('type', { ref: field, text: item })));
    bRead += bytes(text(await call('click', { ref: addButton })));
    bCalls += 2;
  }
  const bBack = text(await call('snapshot'));
  bCalls++;
  bRead += bytes(bBack);
  if (!ITEMS.every((i) => bBack.includes(i))) throw new Error(`the snapshot did not show the items:\n${bBack}`);
  const clickLatency = await time(() => call('click', { ref: addButton })); // empty field: adds nothing
  const snapLatency = await time(() => call('snapshot'));

  // How long after open_tab answers the page's tools are in tools/list (polled every 20 ms).
  const opens = Number(process.env.BENCH_OWN_OPENS || 10);
  const listed = [a.listedMs, b.listedMs];
  for (let i = listed.length; i < opens; i++) {
    const o = await openTodo();
    listed.push(o.listedMs);
    if (o.tabId !== undefined) await call('close_tab', { tabId: o.tabId });
  }

  console.log('| figure (webmcp-todo.html: add 3 todos, read them back) | page tools (WebMCP) | snapshot + type + click |');
  console.log('|---|---|---|');
  console.log(`| tool calls | ${aCalls} | ${bCalls} |`);
  console.log(`| bytes read: tool results | ${aRead} | ${bRead} |`);
  console.log(`| bytes read: tools/list needed | ${aList} (page's own tools: ${ownShare}) | ${bList} |`);
  console.log(`| bytes read: total | ${aRead + aList} | ${bRead + bList} |`);
  console.log(`| open_tab → the page's tools listed | ${quantiles(listed)} | (no discovery needed) |`);
  console.log(`| latency of one call | list_todos ${aLatency}; add_todo ${addLatency} | click ${clickLatency}; snapshot ${snapLatency} |`);
} finally {
  await endBench({ client, browserPid, server, tmp });
}
