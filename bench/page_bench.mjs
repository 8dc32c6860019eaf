// Page-tool figures through the real chain (MCP SDK → shim → host → extension
// → headless Chromium) on the reference page shared/fixtures/bench-fixture.html:
// context economy (tools/list bytes in TAB FOCUSED state, snapshot bytes) and
// per-tool latency (evaluate 1+1, click, snapshot), p50/p95. Prints figures;
// never passes or fails on time. Usage: node bench/page_bench.mjs [buildDir]
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchShim, endBench, serveBenchFixture, timeCalls } from './common.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
// The SDK is pinned once, in tests/e2e/package.json.
const require = createRequire(path.join(repo, 'tests/e2e/package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const build = path.resolve(process.argv[2] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const runs = Number(process.env.BENCH_PAGE_RUNS || 50);
const { server, url } = await serveBenchFixture();

const { tmp, shim } = benchShim(build);
const transport = new StdioClientTransport({ ...shim, args: ['--caps', 'eval'] });
const client = new Client({ name: 'tabbridge-bench', version: '0' });
await client.connect(transport);

const call = async (name, args = {}) => {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result;
};
const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

let browserPid = 0;
try {
  browserPid = (await call('connect_browser', { launch: true })).structuredContent.browser.pid;
  await call('open_tab', { url });
  // The default capabilities' list is what most sessions pay for: measure it on a plain session.
  const plain = new Client({ name: 'tabbridge-bench-plain', version: '0' });
  await plain.connect(new StdioClientTransport({ ...shim, args: [] }));
  await plain.callTool({ name: 'connect_browser', arguments: {} });
  const { tabs } = (await plain.callTool({ name: 'list_tabs', arguments: {} })).structuredContent;
  await plain.callTool({ name: 'focus_tab', arguments: { tabId: tabs[0].id } });
  const listed = (await plain.listTools()).tools;
  const ownTools = listed.filter((x) => /^\[(WebMCP|Form) • /.test(x.description ?? ''));
  const listBytes = Buffer.byteLength(JSON.stringify(listed.filter((x) => !ownTools.includes(x))));
  const ownBytes = Buffer.byteLength(JSON.stringify(ownTools));
  await plain.close();

  const snapshot = text(await call('snapshot'));
  const snapshotBytes = Buffer.byteLength(snapshot);
  const refs = snapshot.match(/\[ref=[^\]]+\]/g) ?? [];
  const submitRef = /button "Submit" \[ref=([^\]]+)\]/.exec(snapshot)?.[1]; // not the spinbutton before it

  const time = async (fn, options) => {
    const { p50, p95 } = await timeCalls(fn, runs, 0, options);
    return `p50 ${p50.toFixed(2)} ms / p95 ${p95.toFixed(2)} ms (n=${runs})`;
  };
  const evaluate = await time(() => call('evaluate', { expression: '1+1' }));
  const click = submitRef ? await time(() => call('click', { ref: submitRef }), { pace: 'frame' }) : 'no submit button ref in the snapshot';
  const snap = await time(() => call('snapshot'));

  console.log('| figure (bench-fixture.html, real Chromium) | value | target / peers |');
  console.log('|---|---|---|');
  console.log(`| tools/list bytes, tab focused, default caps (generic tools) | ${listBytes} | < 6000 (Playwright MCP 20286, chrome-devtools-mcp 28618) |`);
  console.log(`| + the page's own tools (the fixture's forms) | ${ownTools.length} tools, ${ownBytes} bytes | <= 24 tools, 12 KiB a page |`);
  console.log(`| snapshot bytes | ${snapshotBytes} (${refs.length} refs) | < 1500 (Playwright MCP 2702, chrome-devtools-mcp 1867) |`);
  console.log(`| evaluate 1+1 | ${evaluate} | |`);
  console.log(`| click (form submit button) | ${click} | |`);
  console.log(`| snapshot | ${snap} | |`);
} finally {
  await endBench({ client, browserPid, server, tmp });
}
