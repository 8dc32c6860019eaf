// Deadline figures through the real chain (MCP SDK → shim → host → extension →
// headless Chromium): how long a call on a hung renderer takes to answer
// isError, how far past its timeoutMs navigate answers on a page that never
// finishes loading, and navigate to a 204 and to the URL already shown.
// Prints figures; never passes or fails on time.
// Usage: node bench/deadline_bench.mjs [buildDir]
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchShim, endBench } from './common.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
// The SDK is pinned once, in tests/e2e/package.json.
const require = createRequire(path.join(repo, 'tests/e2e/package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const build = path.resolve(process.argv[2] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const held = new Set();
const server = http.createServer((req, res) => {
  if (req.url === '/no-content') return res.writeHead(204).end();
  if (req.url === '/never') {
    // Commits, then never finishes: load never comes.
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write(`<title>Never done</title><p>start</p>${' '.repeat(2048)}\n`);
    held.add(res);
    return undefined;
  }
  res.writeHead(200, { 'content-type': 'text/html' });
  return res.end('<title>Hang me</title><button id="b">Button</button>');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const { tmp, shim } = benchShim(build);
const transport = new StdioClientTransport({ ...shim, args: ['--caps', 'eval'] });
const client = new Client({ name: 'tabbridge-deadline-bench', version: '0' });
await client.connect(transport);

const call = (name, args = {}) => client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
const timed = async (name, args) => {
  const t0 = process.hrtime.bigint();
  const result = await call(name, args);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const text = result.content?.find((c) => c.type === 'text')?.text ?? '';
  return `${ms.toFixed(0)} ms, ${result.isError ? 'isError' : 'ok'}: ${text.slice(0, 90).replace(/\|/g, '/')}`;
};

let browserPid = 0;
try {
  browserPid = (await call('connect_browser', { launch: true })).structuredContent.browser.pid;
  const rows = [];
  await call('open_tab', { url: `${origin}/page` });
  rows.push(['navigate to the URL already shown', await timed('navigate', { url: `${origin}/page` })]);
  rows.push(['navigate to a 204', await timed('navigate', { url: `${origin}/no-content` })]);
  rows.push(['navigate, timeoutMs 2000, page never loads', await timed('navigate', { url: `${origin}/never`, timeoutMs: 2000 })]);
  await call('navigate', { url: `${origin}/page` });
  await call('evaluate', { expression: 'setTimeout(() => { for (;;) {} }, 0); 1' });
  const [click, snapshot, screenshot] = await Promise.all([
    timed('click', { selector: '#b' }), timed('snapshot'), timed('screenshot')]);
  rows.push(['hung renderer: click', click], ['hung renderer: snapshot', snapshot], ['hung renderer: screenshot', screenshot]);
  rows.push(['hung renderer: navigate reload (it cannot)', await timed('navigate', { action: 'reload', timeoutMs: 5_000 })]);
  const hungTab = (await call('list_tabs')).structuredContent.focusedTabId;
  await call('close_tab', { tabId: hungTab });
  await call('open_tab', { url: `${origin}/page` });
  rows.push(['after close_tab + open_tab of its URL: snapshot', await timed('snapshot')]);
  console.log('| figure (real Chromium) | time to the answer |');
  console.log('|---|---|');
  for (const [what, value] of rows) console.log(`| ${what} | ${value} |`);
} finally {
  for (const res of held) res.destroy();
  await endBench({ client, browserPid, server, tmp });
}
