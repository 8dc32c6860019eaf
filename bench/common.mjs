// What the page benches share: the flags our launched browser gets, the shim's
// start and the run's end, and the reference fixture served on 127.0.0.1.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// TABBRIDGE_BROWSER_ARGS for the benches' browser (the shim adds its own, mcp_shim/launcher.cpp).
export const BENCH_BROWSER_ARGS =
  '--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking ' +
  '--disable-component-update --disable-sync --disable-quic';

// Times `runs` calls of fn (after `warmup` unmeasured ones); resolves to the
// p50 and p95 in ms. pace, for calls that wait for one of the page's frames
// (60 a second; a click's mouse move reaches the page only at a frame): the
// untimed pause before each timed call —
//   'frame'   0 to 16 ms, in 7 ms steps around a frame: each call begins at
//             another point of one (back to back, such calls fall into step
//             with the frames and are all timed at the same point of one)
//   'agent'   1 to 2 s, spread alike: an agent's pace, the machine gone idle between calls
//   'none'    back to back (the default)
export const PACES = ['frame', 'agent', 'none'];
const PAUSE_MS = { frame: (i) => (i * 7) % 17, agent: (i) => 1000 + ((i * 7) % 17) * 59, none: () => 0 };

export async function timeCalls(fn, runs, warmup = 0, { pace = 'none' } = {}) {
  const pause = PAUSE_MS[pace];
  if (!pause) throw new Error(`pace must be one of ${PACES.join(', ')}, not ${pace}`);
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const ms = pause(i);
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
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
    const at = req.url.split('?')[0]; // a query makes the same page anew (peers.mjs: first actions)
    res.end(at === '/' ? fixture : at === '/rows.html' ? rows : `<title>${req.url}</title>`);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// The shim as the benches start it: our browser flags, a fresh profile and
// socket directory in a temporary folder. Resolves nothing; returns
// {tmp, shim} where shim is StdioClientTransport's options without args.
// A policy file in `tmp` that allows every site without asking (docs/policy.md): its path.
export function benchPolicy(tmp) {
  const file = path.join(tmp, 'policy.json');
  fs.writeFileSync(file, JSON.stringify({ default: 'allow', rules: [{ sites: ['file:'], allow: ['all'] }] }));
  return file;
}

export function benchShim(build, prefix = 'tb-bench-') {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.mkdirSync(path.join(tmp, 'sock'), { mode: 0o700 });
  const shim = {
    command: path.join(build, 'bin', 'tabbridge'),
    env: {
      ...process.env,
      TABBRIDGE_BROWSER: process.env.TABBRIDGE_BROWSER || '/usr/bin/chromium',
      TABBRIDGE_BROWSER_ARGS: BENCH_BROWSER_ARGS,
      TABBRIDGE_PROFILE_DIR: path.join(tmp, 'profile'),
      TABBRIDGE_SOCKET_DIR: path.join(tmp, 'sock'),
      // Every site allowed without asking: a bench has nobody to ask (docs/policy.md).
      TABBRIDGE_POLICY: benchPolicy(tmp),
    },
    stderr: 'ignore',
  };
  return { tmp, shim };
}

// Ends a bench run: closes the client, kills the browser it launched and waits
// for it (its helpers write the profile until they notice), stops the server,
// removes the temporary folder.
export async function endBench({ client, browserPid, server, tmp }) {
  await client?.close().catch(() => {});
  if (browserPid) {
    try { process.kill(browserPid, 'SIGKILL'); } catch { /* gone */ }
    for (let i = 0; i < 100; i++) {
      try { process.kill(browserPid, 0); } catch { break; }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  server?.close();
  try {
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  } catch (e) {
    console.error(`note: could not remove ${tmp}: ${e.message}`);
  }
}
