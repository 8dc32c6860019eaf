// The Chrome team's public WebMCP demos, replayed from their own eval sets
// through tabbridge (not part of CI: it needs a checkout of
// GoogleChromeLabs/webmcp-tools). Each eval is a user message and the calls a
// model is expected to make; this replays those calls — no model — through
// the MCP tools tabbridge lists for the page (call_webmcp_tool only for a
// tool deliberately left out of tools/list), on a fresh tab per eval, and
// checks what followed: every call answered without error, the answer holds
// the eval's expected `result` where it gives one, and the suite's own check
// of the page (where it has one) holds; calls that are not read-only but left
// the page's HTML as it was are counted ("no change": removing what is not
// there changes nothing, so it is not a failure by itself). Matchers in the expected arguments ($pattern,
// $contains, $type, $gt…) are resolved to concrete values: a $pattern from the
// user's message where it matches there.
//
// Usage: node bench/webmcp_evals.mjs <webmcp-tools checkout> [buildDir]
//   BENCH_EVALS_ONLY=pizza-maker,french-bistro  runs only the suites whose name starts so
//   (doors, hotel-chain, smart-home, sport-shop-angular are built like react-flightsearch)
//   react-flightsearch is built first in the checkout (npm ci && npm run build) unless
//   its dist/ exists. Its hook package, use-webmcp-tool 0.2.0, may be missing from the
//   registry (it is from the one this was written on): BENCH_USE_WEBMCP_TOOL=<dir> names
//   a package directory (GoogleChromeLabs/use-webmcp-tool's useWebMCP.js + .d.ts with a
//   package.json naming them) installed in its place.
// Prints per suite: evals passed / replayed, calls made, bytes the model read,
// calls that changed nothing, calls to a tool the demo has renamed since the
// eval set was written (made to the new one), arguments the page's schema requires
// that the eval left out (added as a model reading that schema would); then
// the failures.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
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

const checkout = process.argv[2] && path.resolve(process.argv[2]);
if (!checkout || !fs.existsSync(path.join(checkout, 'demos'))) {
  console.error('usage: node bench/webmcp_evals.mjs <checkout of GoogleChromeLabs/webmcp-tools> [buildDir]');
  process.exit(2);
}
const build = path.resolve(process.argv[3] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const examples = path.join(checkout, 'webmcp-evals/examples');

// The imperative french-bistro does JSON.parse(tool.inputSchema) on what
// document.modelContext.getTools() gives: a JSON string in the Chrome it was
// written for, an object in Chromium 156, where that throws ("[object Object]"
// is not valid JSON) before the page registers its tool — no client can call
// it. Served with this first in <head>, getTools() gives the schema as text
// again (and executeTool takes such a tool back), so the demo runs as
// written; tabbridge's own reading of the list takes either shape
// (own_tools_main.js schemaOf).
const SCHEMAS_AS_TEXT = `<script>(() => {
  const mc = document.modelContext;
  if (!mc?.getTools || !mc.executeTool) return;
  const getTools = mc.getTools.bind(mc);
  const executeTool = mc.executeTool.bind(mc);
  const given = new Map(); // name -> the browser's own tool object
  mc.getTools = async () => (await getTools()).map((t) => {
    given.set(t.name, t);
    return {
      name: t.name, title: t.title, description: t.description, annotations: t.annotations,
      inputSchema: typeof t.inputSchema === 'string' ? t.inputSchema : JSON.stringify(t.inputSchema ?? {}),
    };
  });
  mc.executeTool = (tool, ...rest) => executeTool(given.get(tool?.name) ?? tool, ...rest);
})();</script>`;

// root: what the suite's server serves ('demos' or a built app); page: its path there.
const SUITES = [
  { name: 'pizza-maker', root: 'demos', page: '/pizza-maker/index.html', evals: 'pizza-maker/evals.json' },
  { name: 'french-bistro', root: 'demos', page: '/french-bistro/index.html', evals: 'french-bistro/evals.json' },
  { name: 'french-bistro ?toolautosubmit', root: 'demos', page: '/french-bistro/index.html?toolautosubmit', evals: 'french-bistro/evals-toolautosubmit.json' },
  {
    name: 'french-bistro ?crossdocument&toolautosubmit', root: 'demos', page: '/french-bistro/index.html?crossdocument&toolautosubmit',
    evals: 'french-bistro/evals-toolautosubmit-crossdocument.json',
  },
  {
    name: 'french-bistro ?crossdocument&toolautosubmit&imperative', root: 'demos',
    page: '/french-bistro/index.html?crossdocument&toolautosubmit&imperative', evals: 'french-bistro/evals-toolautosubmit-crossdocument-imperative.json',
  },
  {
    name: 'french-bistro …&imperative, schemas as text', root: 'demos', inject: SCHEMAS_AS_TEXT,
    page: '/french-bistro/index.html?crossdocument&toolautosubmit&imperative', evals: 'french-bistro/evals-toolautosubmit-crossdocument-imperative.json',
  },
  // The other demos the upstream smoke runner (webmcp-evals/run_smoke.sh) replays.
  { name: 'doors', root: 'demos', page: '/doors/index.html', evals: 'doors/evals.json' },
  {
    name: 'hotel-chain', root: 'demos/hotel-chain/dist', spa: true, page: '/', evals: 'hotel-chain/evals.json', build: 'demos/hotel-chain',
    localDeps: [{ name: 'use-webmcp-tool', env: 'BENCH_USE_WEBMCP_TOOL' }],
  },
  {
    name: 'smart-home', root: 'demos/smart-home/dist', spa: true, page: '/', evals: 'smart-home/evals.json', build: 'demos/smart-home',
    localDeps: [{ name: 'use-webmcp-tool', env: 'BENCH_USE_WEBMCP_TOOL' }],
  },
  {
    name: 'sport-shop-angular', root: 'demos/sport-shop-angular/dist/sport-shop-angular/browser', spa: true, page: '/',
    evals: 'sport-shop-angular/evals.json', build: 'demos/sport-shop-angular',
  },
  {
    // Its results page registers listFlights, setFilters and resetFilters from
    // React effects: those evals start there, on the search the evals'
    // messages speak of (LON to NYC). searchFlights is on both pages, but only
    // the search page answers it (the results page's handler never signals
    // completion, so the page's own tool times out there): a search starts on
    // the search page, as a user's would.
    name: 'react-flightsearch', root: 'demos/react-flightsearch/dist', spa: true,
    page: '/#/results?origin=LON&destination=NYC&tripType=round-trip&outboundDate=2026-01-20&inboundDate=2026-01-27&passengers=1',
    pageByTool: { searchFlights: '/' },
    evals: 'travel/evals.json', build: 'demos/react-flightsearch',
    localDeps: [{ name: 'use-webmcp-tool', env: 'BENCH_USE_WEBMCP_TOOL' }],
    // The eval set is written against its schema.json (the upstream smoke
    // runner leaves this suite out), which the page has moved on from: its
    // filterFlights is the page's setFilters, whose times are [from, to] in
    // minutes of the day, not {min, max} as "HH:MM".
    renamed: { filterFlights: { to: 'setFilters', args: filterToSetFilters } },
  },
];
const only = (process.env.BENCH_EVALS_ONLY || '').split(',').map((s) => s.trim()).filter(Boolean);
const suites = SUITES.filter((s) => !only.length || only.some((o) => s.name.startsWith(o)));

const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.webp': 'image/webp', '.ico': 'image/x-icon', '.woff2': 'font/woff2' };

// A static server for `root`; spa: unknown paths answer index.html (a
// client-side router's); inject: HTML put first in every page's <head>.
async function serve(root, spa, inject) {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file.startsWith(root)) return res.writeHead(403).end();
    if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      if (!spa) return res.writeHead(404).end();
      file = path.join(root, 'index.html');
    }
    res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    const body = fs.readFileSync(file);
    res.end(inject && file.endsWith('.html') ? body.toString().replace(/<head[^>]*>/i, (h) => `${h}${inject}`) : body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

// travel/evals.json's filterFlights call as the page's setFilters call.
function filterToSetFilters(args) {
  const minutes = (hhmm) => {
    const [h, m] = String(hhmm).split(':').map(Number);
    return h * 60 + (m || 0);
  };
  const out = { ...args };
  for (const key of ['departureTime', 'arrivalTime']) {
    const t = args[key];
    if (t && typeof t === 'object' && !Array.isArray(t)) out[key] = [t.min ? minutes(t.min) : 0, t.max ? minutes(t.max) : 1439];
  }
  return out;
}

// --- matchers to values -------------------------------------------------------

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

// A value for a property of the tool's schema (what $type or $any leaves open).
function sampleFor(schema = {}, key = '') {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum?.length) return schema.enum[0];
  if (type === 'number' || type === 'integer') return Math.max(1, schema.minimum ?? 1);
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (schema.format === 'date' || /date/i.test(key)) return tomorrow();
  if (schema.format === 'time' || /time/i.test(key)) return '19:00';
  return 'sample';
}

// A string the regex matches: found in the user's words, else the regex with its syntax taken out.
function fromPattern(pattern, words) {
  const re = new RegExp(pattern, 'i');
  const found = words.match(re);
  if (found) return found[0];
  return pattern.replace(/^\^|\$$/g, '').replace(/\\d\{(\d+)\}/g, (m, n) => '1'.repeat(+n)).replace(/\\d\+?/g, '1')
    .replace(/\.\*|\.\+/g, ' ').replace(/\\(.)/g, '$1').replace(/[()?*+[\]]/g, '');
}

function resolve(value, schema, key, words) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const ops = Object.keys(value);
  if (!ops.some((k) => k.startsWith('$'))) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, schema?.properties?.[k], k, words)]));
  }
  if ('$pattern' in value) return fromPattern(value.$pattern, words);
  if ('$contains' in value) return value.$contains;
  if ('$gte' in value) return value.$gte;
  if ('$lte' in value) return value.$lte;
  if ('$gt' in value) return value.$gt + 1;
  if ('$lt' in value) return value.$lt - 1;
  if ('$type' in value) return value.$type === 'string' ? String(sampleFor({ ...schema, type: 'string' }, key)) : sampleFor({ ...schema, type: value.$type }, key);
  return sampleFor(schema, key); // $any
}

// --- the run ------------------------------------------------------------------

const bytes = (v) => Buffer.byteLength(typeof v === 'string' ? v : JSON.stringify(v));
const text = (result) => (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

const { tmp, shim } = benchShim(build, 'tb-bench-evals-');
const client = new Client({ name: 'tabbridge-bench-evals', version: '0' });
await client.connect(new StdioClientTransport({ ...shim, args: ['--caps', 'html'] })); // html: the state check's page HTML
const call = (name, args = {}) => client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
const poll = async (fn, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
};

// The page's HTML (its state as the DOM shows it: classes, styles, values).
const pageHtml = async () => text(await call('read_page', { mode: 'html', maxChars: 2_000_000 }));

const report = [];
const failures = [];
let browserPid = 0;
let server = null;
try {
  browserPid = (await call('connect_browser', { launch: true })).structuredContent.browser.pid;
  for (const suite of suites) {
    if (suite.build && !fs.existsSync(path.join(checkout, suite.root, 'index.html'))) {
      try {
        const dir = path.join(checkout, suite.build);
        console.error(`building ${suite.build} (npm ci && npm run build) …`);
        const local = suite.localDeps?.filter((d) => process.env[d.env]) ?? [];
        if (local.length) {
          // The registry lacks it: the checkout named in the variable stands in (this edits the demo's package.json and lock).
          for (const d of local) execFileSync('npm', ['pkg', 'set', `dependencies.${d.name}=file:${path.resolve(process.env[d.env])}`], { cwd: dir });
          // The lock still names the registry's tarball: drop those entries so npm resolves the directory.
          const lockFile = path.join(dir, 'package-lock.json');
          const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
          for (const key of Object.keys(lock.packages ?? {})) {
            if (local.some((d) => key.endsWith(`node_modules/${d.name}`))) delete lock.packages[key];
          }
          fs.writeFileSync(lockFile, JSON.stringify(lock, null, 2));
          execFileSync('npm', ['install', '--install-links', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
        } else {
          execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
        }
        execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (e) {
        // A demo that does not build here (sport-shop-angular's Angular CLI wants Node 22) is reported, not fatal.
        report.push({ suite: suite.name, notBuilt: String(e.stderr ?? e.message).split('\n').find((l) => l.trim()) ?? 'build failed' });
        continue;
      }
    }
    const served = await serve(path.join(checkout, suite.root), suite.spa, suite.inject);
    server = served.server;
    const evals = JSON.parse(fs.readFileSync(path.join(examples, suite.evals), 'utf8'));
    const row = { suite: suite.name, passed: 0, total: evals.length, calls: 0, read: 0, unchanged: 0, renamed: 0, filled: 0 };
    for (const [i, ev] of evals.entries()) {
      const label = ev.name ?? `#${i + 1} ${ev.messages?.at(-1)?.content ?? ''}`.slice(0, 80);
      const words = (ev.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
      // {unordered: [calls]}: calls in any order — made in the order written.
      const wanted = (ev.expectedCall ?? []).flatMap((c) => c.unordered ?? [c]).filter((c) => !c.optional);
      const fail = (why) => failures.push(`${suite.name} — ${label}: ${why}`);
      for (const [i, c] of wanted.entries()) {
        const r = suite.renamed?.[c.functionName];
        if (!r) continue;
        wanted[i] = { ...c, functionName: r.to, arguments: r.args(c.arguments ?? {}) };
        row.renamed++;
      }
      const page = suite.pageByTool?.[wanted[0]?.functionName] ?? suite.page;
      const opened = await call('open_tab', { url: `${served.origin}${page}` });
      const tabId = opened.structuredContent?.tab?.id;
      try {
        // Each call waits for its tool: a framework registers tools late, and
        // a call can bring the next one's (a door opened offers talk).
        let ok = true;
        for (const expected of wanted) {
          const listed = await poll(async () => {
            const r = await call('list_webmcp_tools', {});
            const tools = r.structuredContent?.tools ?? [];
            return tools.some((t) => t.name === expected.functionName) ? tools : null;
          }, 15_000);
          if (!listed) {
            const r = await call('list_webmcp_tools', {});
            fail(`the page never offered ${expected.functionName} (it offers ${(r.structuredContent?.tools ?? []).map((t) => t.name).join(', ') || 'nothing'})`);
            ok = false;
            break;
          }
          const tool = listed.find((t) => t.name === expected.functionName);
          const args = resolve(expected.arguments ?? {}, tool.inputSchema, '', words);
          // What the page's schema requires and the eval leaves out (an older schema's call): what a model reading this one would add.
          for (const key of tool.inputSchema?.required ?? []) {
            if (args[key] !== undefined) continue;
            args[key] = key === 'inboundDate' && args.outboundDate ? args.outboundDate : sampleFor(tool.inputSchema.properties?.[key], key);
            row.filled++;
          }
          const before = await pageHtml();
          const result = tool.mcpName ? await call(tool.mcpName, args) : await call('call_webmcp_tool', { name: tool.name, arguments: args });
          row.calls++;
          row.read += bytes(text(result));
          if (result.isError) {
            fail(`${expected.functionName}(${JSON.stringify(args)}) answered an error: ${text(result).slice(0, 300)}`);
            ok = false;
            break;
          }
          if (typeof expected.result === 'string' && !text(result).toLowerCase().includes(expected.result.toLowerCase())) {
            fail(`${expected.functionName} answered "${text(result).slice(0, 200)}", not "${expected.result}"`);
            ok = false;
            break;
          }
          if (!tool.readOnly) {
            // Not a failure by itself: removing what is not there, or resetting a fresh page, changes nothing.
            if (!(await poll(async () => (await pageHtml()) !== before, 2_000))) row.unchanged++;
          }
        }
        if (ok) row.passed++;
      } finally {
        if (tabId) await call('close_tab', { tabId }).catch(() => {});
      }
    }
    report.push(row);
    server.close();
    server = null;
  }
} finally {
  await endBench({ client, browserPid, server, tmp });
}

console.log('suite'.padEnd(56), 'passed'.padStart(8), 'calls'.padStart(6), 'bytes read'.padStart(11), 'no change'.padStart(10),
  'renamed'.padStart(8), 'args added'.padStart(11));
for (const r of report) {
  if (r.notBuilt) {
    console.log(r.suite.padEnd(56), `not built: ${r.notBuilt}`);
    continue;
  }
  console.log(r.suite.padEnd(56), `${r.passed}/${r.total}`.padStart(8), String(r.calls).padStart(6), String(r.read).padStart(11),
    String(r.unchanged).padStart(10), String(r.renamed).padStart(8), String(r.filled).padStart(11));
}
if (failures.length) {
  console.log('\nfailures:');
  for (const f of failures) console.log(`- ${f}`);
}
