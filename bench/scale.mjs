// How snapshot time and size grow with the page, tabbridge next to Playwright
// MCP and chrome-devtools-mcp in one run (servers from peer_servers.mjs, pages
// from fixture_server.mjs, all on 127.0.0.1):
//   rows N      our generated page of N rows, a button each, between a banner
//               with a navigation and a search box and a footer: N = 100, 1,000, 10,000
//   api-docs    swagger-ui-dist 5.35.0 on a generated OpenAPI document of
//               BENCH_SCALE_OPS (140) operations in 7 tags, every one expanded
//               (docExpansion "full": its parameters, "Try it out", responses):
//               a real app's large page. (From 150 tags + operations on,
//               Swagger UI renders only what is on screen: no larger page.)
//   github-api  the same Swagger UI on GitHub's REST API description
//               (@octokit/openapi, pinned in tests/e2e/package.json), cut to
//               its first BENCH_SCALE_GITHUB_OPS (127) operations, the most
//               below Swagger UI's 150 rows, as Swagger UI opens it (its
//               tags open, each operation one line; 0: no github page)
// Per server and page: the page is loaded and waited for (its rows, or Swagger
// UI's operations, all in the DOM), then `snapshot` BENCH_SCALE_RUNS (3) times:
// p50 ms, bytes of the first answer the model reads (text) and the refs in it.
// Ours answers at most maxChars (20,000 by default) and a cursor for the rest:
// also the calls and bytes it takes to page through all of it. Last, the last
// row's button is clicked by its ref from a snapshot (ours: from the last
// page; for Swagger UI the last operation's summary, which closes it) and the
// page must show that click: "clicked" or "MISSED".
//
// Usage: node bench/scale.mjs [buildDir]
//   BENCH_SCALE_ROWS=100,1000,10000   row counts;  BENCH_SCALE_OPS=140 (0: no api-docs page)
//   BENCH_SCALE_RUNS=3                snapshots timed per page;  BENCH_PEERS_ONLY=tabbridge,…  a subset
//   BENCH_SCALE_DUMP=dir              writes what each server answered per page (<server>-<page>.txt), to read
// Prints figures only: it never fails on time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveBenchPages } from './fixture_server.mjs';
import { unfold } from '../extension/tools/shared/snapshot_unfold.js';
import { BROWSER, bytes, chosenServers, endSession, startSession, text } from './peer_servers.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.resolve(process.argv[2] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const rowCounts = (process.env.BENCH_SCALE_ROWS || '100,1000,10000').split(',').map(Number);
const ops = Number(process.env.BENCH_SCALE_OPS ?? 140);
const runs = Number(process.env.BENCH_SCALE_RUNS || 3);
const githubOps = Number(process.env.BENCH_SCALE_GITHUB_OPS ?? 127);
const dumpDir = process.env.BENCH_SCALE_DUMP || null;

const PAGES = [
  ...rowCounts.map((n) => ({
    label: `rows N=${n.toLocaleString('en')}`, path: `/rows?n=${n}`, ready: `document.querySelectorAll('#rows li').length === ${n}`,
    last: { role: 'button', name: `Cancel order ${n}` }, hit: `(window.hits[${n}] || 0) === 1`,
  })),
  ...(ops > 0 ? [{
    label: `swagger-ui, ${ops} operations expanded`, path: `/api-docs?ops=${ops}&expand=full`,
    ready: `document.querySelectorAll('.opblock .opblock-body').length === ${ops}`,
    // The last operation's summary button: a click closes the operation.
    last: { role: 'button', name: new RegExp(`^(GET|POST|PUT|DELETE) .* item ${ops - 1} of resource\\d+$`) },
    hit: `!document.querySelector('#operations-resource${String(Math.floor((ops - 1) / 20) + 1).padStart(2, '0')}-op${ops - 1} .opblock-body')`,
  }] : []),
  ...(githubOps > 0 ? [{
    label: `swagger-ui, GitHub's API (${githubOps} operations)`, path: `/github-api?ops=${githubOps}`,
    ready: `document.querySelectorAll('.opblock').length === ${githubOps}`,
    // The last operation's summary button (of the first 127: agent-tasks' last): a click opens it.
    last: { role: 'button', name: /^GET \/agents\/tasks\/\{task_id\} Get a task by ID$/ },
    hit: `[...document.querySelectorAll('.opblock')].at(-1).querySelector('.opblock-body') !== null`,
  }] : []),
];

// Ours: a folded run's items count their refs (unfold).
const refsIn = (snapshot) => (unfold(snapshot).join('\n').match(/\[ref=[^\]]+\]|\buid=\S+/g) ?? []).length;
const p50 = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];

async function measurePage(s, def, page, url, first) {
  // An agent whose navigation answered an error (a server's own time limit) still takes the snapshot.
  let opened = 'ok';
  try {
    await (first ? def.open(s, url) : def.goto(s, url));
  } catch (e) {
    opened = `error: ${e.message.replace(/\s+/g, ' ').replace(/^.*?### Error /, '').slice(0, 90)}`;
  }
  await s.until(page.ready, `${page.label} to render`, 60_000);
  const times = [];
  let answer;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const snapshot = text(await def.snapshot(s));
    times.push(performance.now() - t0);
    answer ??= snapshot;
  }
  const row = { opened, ms: p50(times), bytes: bytes(answer), refs: refsIn(answer), lines: answer.split('\n').length };
  const pages = [answer];
  // Ours: page through the rest with the cursor each answer ends with.
  if (def.name === 'tabbridge') {
    row.allBytes = row.bytes;
    const t0 = performance.now();
    for (let cursor = /cursor "([^"]+)"/.exec(answer)?.[1]; cursor; cursor = /cursor "([^"]+)"/.exec(pages.at(-1))?.[1]) {
      pages.push(text(await def.snapshot(s, { cursor })));
      row.allBytes += bytes(pages.at(-1));
    }
    row.pages = pages.length;
    row.allMs = performance.now() - t0 + row.ms;
    row.landmarksFirst = ['banner', 'navigation', 'search', 'contentinfo'].filter((l) => new RegExp(`^\\s*- ${l}\\b`, 'm').test(answer));
  }
  if (dumpDir) {
    fs.mkdirSync(dumpDir, { recursive: true });
    const name = `${def.name}-${page.path.replace(/\W+/g, '-').replace(/^-|-$/g, '')}.txt`;
    fs.writeFileSync(path.join(dumpDir, name), pages.join('\n----- next page -----\n'));
  }
  // The last element's ref, from the last page that has it (ours: from all
  // pages read together, a run's items below the header a page before).
  const ref = def.name === 'tabbridge' ? def.ref(pages.join('\n'), page.last)
    : pages.reduceRight((found, p) => found ?? def.ref(p, page.last), undefined);
  if (!ref) {
    row.click = 'no ref';
  } else {
    const result = await def.click(s, ref, `${typeof page.last.name === 'string' ? page.last.name : 'last operation'} button`);
    const hit = await s.until(page.hit, 'the click to show', 5_000).catch(() => false);
    row.click = hit ? 'clicked' : result.isError ? `MISSED (error: ${text(result).slice(0, 80)})` : 'MISSED (answered as done)';
  }
  return row;
}

async function measure(def, origin) {
  const s = await startSession(def, { build, caps: ['eval'] });
  const rows = [];
  try {
    for (const [i, page] of PAGES.entries()) {
      try {
        rows.push(await measurePage(s, def, page, origin + page.path, i === 0));
      } catch (e) {
        rows.push({ error: e.message.replace(/\s+/g, ' ').slice(0, 160) });
      }
    }
  } finally {
    await endSession(s);
  }
  return { name: def.name, version: def.version(), rows };
}

const { server, origin } = await serveBenchPages();
try {
  const results = [];
  for (const def of chosenServers()) results.push(await measure(def, origin));
  const kb = (n) => (n >= 10_000 ? `${(n / 1024).toFixed(0)} KiB` : `${n} B`);
  const cell = (r, i, f) => (r.rows[i]?.error ? 'error (below)' : f(r.rows[i]));
  console.log(`snapshot by page size, ${path.basename(BROWSER)} headless, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? '?'}; p50 of ${runs}`);
  console.log();
  console.log(`| page | figure | ${results.map((r) => `${r.name} (${r.version})`).join(' | ')} |`);
  console.log(`|---|---|${results.map(() => '---|').join('')}`);
  for (const [i, page] of PAGES.entries()) {
    const line = (figure, f) => console.log(`| ${page.label} | ${figure} | ${results.map((r) => cell(r, i, f)).join(' | ')} |`);
    line('opening it (navigate\'s answer)', (x) => x.opened);
    line('snapshot p50 ms', (x) => x.ms.toFixed(0));
    line('first answer: bytes (refs, lines)', (x) => `${kb(x.bytes)} (${x.refs} refs, ${x.lines} lines)`);
    if (results.some((r) => r.name === 'tabbridge')) {
      line('ours: all of it through the cursor: calls, bytes, ms', (x) => (x.pages ? `${x.pages}, ${kb(x.allBytes)}, ${x.allMs.toFixed(0)}` : '(one answer)'));
      line('ours: landmarks in the first answer', (x) => (x.landmarksFirst ? x.landmarksFirst.join(', ') || 'none' : '—'));
    }
    line('last row/operation clicked by its ref', (x) => x.click);
  }
  for (const r of results) {
    for (const [i, row] of r.rows.entries()) if (row.error) console.log(`\n${r.name}, ${PAGES[i].label}: ${row.error}`);
  }
} finally {
  server.close();
}
