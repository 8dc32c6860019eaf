// What the page benches share: the flags our launched browser gets, and the
// reference fixture served on 127.0.0.1.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// TABBRIDGE_BROWSER_ARGS for the benches' browser (the shim adds its own, mcp_shim/launcher.cpp).
export const BENCH_BROWSER_ARGS =
  '--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking ' +
  '--disable-component-update --disable-sync --disable-quic';

// Times `runs` calls of fn (after `warmup` unmeasured ones); resolves to the
// p50 and p95 in ms.
export async function timeCalls(fn, runs, warmup = 0) {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const q = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))];
  return { p50: q(0.5), p95: q(0.95) };
}

// Serves tests/e2e/fixtures/bench-fixture.html at / (any other path: a page
// titled with it). Resolves to {server, url}.
export async function serveBenchFixture() {
  const fixture = fs.readFileSync(path.join(repo, 'tests/e2e/fixtures/bench-fixture.html'));
  const rows = fs.readFileSync(path.join(repo, 'tests/e2e/fixtures/rows.html')); // /rows.html: 100 rows, the page counts trusted clicks per row
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(req.url === '/' ? fixture : req.url.startsWith('/rows.html') ? rows : `<title>${req.url}</title>`);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}
