// Soak: SOAK_SESSIONS sessions (each its own shim, driven by the official MCP
// SDK client) × SOAK_CALLS page-tool calls each, all at once, every session on
// its own tab of one headless Chromium (launched by the first session's
// connect_browser {launch:true}). Each tab shows its session's token
// (tests/e2e/fixtures/soak.html), so every answer is checked against its own
// tab: an answer showing another session's token is misrouted; one whose
// count or typed text is not what this session did is a wrong state.
// Prints errors, misrouted answers, calls/s, p50/p99 and the RSS of the shims,
// the host and the browser (all its processes) before and after, both after
// a forced GC. Figures only: nothing here fails on time.
// Usage: node bench/soak.mjs [buildDir]   (SOAK_SESSIONS=20 SOAK_CALLS=500)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
process.env.TABBRIDGE_BUILD_DIR = path.resolve(process.argv[2] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const sessionsWanted = Number(process.env.SOAK_SESSIONS || 20);
const callsEach = Number(process.env.SOAK_CALLS || 500);

// The e2e harness: shims with temp socket/profile dirs, the fixture server, cleanup of every process it caused.
const { CdpConnection, Harness, devToolsPort, devToolsTargets, errorText, findDescendants, launchBrowser, procCmdline, targetWsUrl, waitFor } = await import('../tests/e2e/harness.mjs');
const { bodyText, evalValue } = await import('../tests/e2e/page_helpers.mjs');

const rssKiB = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // gone
  }
};
// Summed RSS counts the pages the browser's processes share once per process; PSS splits them.
const pssKiB = (pid) => {
  try {
    return Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};
// Which of the browser's processes: the browser itself, the extension's renderer, the tabs' renderers, …
const kindOf = (pid) => {
  const cmd = (procCmdline(pid) ?? []).join(' '); // Chromium's helpers rewrite their argv into one string
  if (cmd.includes('--extension-process')) return 'extension';
  return /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
};
const mib = (kib) => (kib / 1024).toFixed(1);

const h = new Harness();
let exitCode = 0;
try {
  const web = await h.fixtureServer();
  const tokens = Array.from({ length: sessionsWanted }, (_, i) => `soak${String(i).padStart(3, '0')}x${Math.random().toString(36).slice(2, 8)}`);
  const shimArgs = ['--caps', 'eval'];

  // Set-up: one browser, one host, N shims each focused on its own tab.
  // The DevTools endpoint only to collect garbage before measuring (see gc below).
  const first = await h.startSession({ name: 'soak-0', shimArgs, extraBrowserArgs: ['--remote-debugging-port=0'] });
  const launched = await launchBrowser(first);
  const devtools = await devToolsPort({ profileDir: first.profileDir, browserPid: launched.browser.pid });
  const browserPid = launched.browser.pid;
  const hostPid = launched.hostPid;
  const sessions = [first];
  for (let i = 1; i < sessionsWanted; i++) {
    const s = await h.startSession({ name: `soak-${i}`, shimArgs, socketDir: first.socketDir });
    await s.callOk('connect_browser', {});
    sessions.push(s);
  }
  const workers = await Promise.all(
    sessions.map(async (s, i) => {
      const token = tokens[i];
      await s.callOk('open_tab', { url: web.url(`/soak.html?token=${token}`) });
      await waitFor(async () => evalValue(await s.pageOk('evaluate', { expression: 'document.readyState' })) === 'complete', {
        timeoutMs: 60_000,
        what: `${s.name}'s tab to load`,
      });
      return { s, token, clicks: 0, typed: '' };
    }),
  );

  const others = (token) => tokens.filter((t) => t !== token);
  const stats = { calls: 0, errors: 0, misrouted: 0, wrongState: 0, firstProblems: [] };
  const latencies = [];
  const perTool = new Map(); // name -> latencies (ms)
  const problem = (kind, w, name, detail) => {
    stats[kind]++;
    if (stats.firstProblems.length < 10) stats.firstProblems.push(`${kind} ${w.s.name} ${name}: ${String(detail).slice(0, 300)}`);
  };

  // One call of the mix; `i` picks the tool. Every answer must carry the own token
  // (or the own state) and no other session's.
  const step = async (w, i) => {
    const kind = i % 5;
    let name, args, check;
    if (kind === 0) {
      name = 'evaluate';
      args = { expression: `({token: document.body.dataset.token, count: Number(document.getElementById('count').textContent), note: document.getElementById('note').value})` };
      check = (r) => {
        const v = evalValue(r);
        if (v?.token !== w.token) return ['misrouted', `token ${v?.token}`];
        if (v.count !== w.clicks || v.note !== w.typed) return ['wrongState', `count ${v.count}/${w.clicks} note ${v.note}/${w.typed}`];
        return null;
      };
    } else if (kind === 1) {
      name = 'click';
      args = { selector: '#plus' };
      w.clicks++;
    } else if (kind === 2) {
      name = 'snapshot';
      args = {};
    } else if (kind === 3) {
      name = 'type';
      args = { selector: '#note', text: `${w.token}-${i}`, clear: true };
      w.typed = args.text;
    } else {
      name = 'read_page';
      args = { mode: 'text' };
      check = (r) => (bodyText(r).includes(`count: ${w.clicks}`) ? null : ['wrongState', `no "count: ${w.clicks}"`]);
    }
    const t0 = process.hrtime.bigint();
    let r;
    try {
      r = await w.s.call(name, args, { timeoutMs: 60_000 });
    } catch (err) {
      problem('errors', w, name, err.message);
      return;
    } finally {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      latencies.push(ms);
      if (!perTool.has(name)) perTool.set(name, []);
      perTool.get(name).push(ms);
      stats.calls++;
    }
    if (r.isError) return problem('errors', w, name, errorText(r));
    const text = JSON.stringify(r.content);
    const foreign = others(w.token).find((t) => text.includes(t));
    if (foreign) return problem('misrouted', w, name, `shows ${foreign}`);
    // click names its button and snapshot/read_page show the heading: all carry the token.
    if (kind !== 0 && kind !== 3 && !text.includes(w.token)) return problem('misrouted', w, name, 'no own token');
    const bad = check?.(r);
    if (bad) problem(bad[0], w, name, bad[1]);
  };

  // Warm-up: one of each tool per session (the debugger attaches), then measure from there.
  await Promise.all(workers.map(async (w) => { for (let i = 0; i < 5; i++) await step(w, i); }));
  Object.assign(stats, { calls: 0, errors: 0, misrouted: 0, wrongState: 0, firstProblems: [] });
  latencies.length = 0;
  perTool.clear();

  const sample = () => {
    const browserPids = [browserPid, ...findDescendants([browserPid])].filter((p) => p !== hostPid);
    return {
      shims: sessions.reduce((n, s) => n + rssKiB(s.pid), 0),
      host: rssKiB(hostPid),
      browser: browserPids.reduce((n, p) => n + rssKiB(p), 0),
      browserPss: browserPids.reduce((n, p) => n + pssKiB(p), 0),
      browserProcs: browserPids.length,
      byKind: browserPids.reduce((m, p) => m.set(kindOf(p), (m.get(kindOf(p)) ?? 0) + pssKiB(p)), new Map()),
    };
  };
  // Under load the renderers hold garbage of the injected scripts (tens of MiB a
  // tab, freed by the next major GC), so memory is compared after a forced GC in
  // every page and in the extension's worker: what is left is what is kept.
  const gc = async () => {
    for (const t of await devToolsTargets(devtools)) {
      if (t.type !== 'page' && t.type !== 'service_worker') continue;
      const c = await CdpConnection.open(targetWsUrl(devtools, t)).catch(() => null);
      await c?.send('HeapProfiler.collectGarbage').catch(() => {});
      c?.close();
    }
  };
  await gc();
  const before = sample();
  const t0 = Date.now();
  await Promise.all(workers.map(async (w) => { for (let i = 0; i < callsEach; i++) await step(w, i); }));
  const seconds = (Date.now() - t0) / 1000;
  const measured = stats.calls;
  // The truth after all calls: every page shows exactly what its own session did.
  for (const w of workers) await step(w, 0);
  const loaded = sample();
  await gc();
  const after = sample();

  const q = (p, xs = latencies) => {
    xs.sort((a, b) => a - b);
    return xs.length ? xs[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(1) : '-';
  };
  const growth = (k) => `${mib(before[k])} → ${mib(after[k])} MiB (${after[k] >= before[k] ? '+' : ''}${mib(after[k] - before[k])})`;
  console.log(`| soak: ${sessionsWanted} sessions × ${callsEach} page-tool calls (evaluate, click, snapshot, type, read_page), one headless Chromium | value |`);
  console.log('|---|---|');
  console.log(`| calls made | ${measured} (+ a final check of each tab) |`);
  console.log(`| errors (isError or no answer) | ${stats.errors} |`);
  console.log(`| misrouted answers (another session's token, or not its own) | ${stats.misrouted} |`);
  console.log(`| wrong page state (count or typed text not this session's) | ${stats.wrongState} |`);
  console.log(`| throughput | ${(measured / seconds).toFixed(1)} calls/s (${seconds.toFixed(1)} s) |`);
  console.log(`| latency | p50 ${q(0.5)} ms / p99 ${q(0.99)} ms / max ${q(1)} ms |`);
  for (const [name, xs] of perTool) console.log(`| ${name} | p50 ${q(0.5, xs)} ms / p99 ${q(0.99, xs)} ms (n=${xs.length}) |`);
  console.log(`| RSS of the ${sessions.length} shims | ${growth('shims')} |`);
  console.log(`| RSS of the host | ${growth('host')} |`);
  console.log(`| RSS of the browser (${before.browserProcs} → ${after.browserProcs} processes, summed) | ${growth('browser')} |`);
  console.log(`| PSS of the browser | ${growth('browserPss')} (${mib(loaded.browserPss)} MiB at the end of the load, before GC) |`);
  const kinds = [...new Set([...before.byKind.keys(), ...after.byKind.keys()])];
  console.log(`| PSS by process kind | ${kinds.map((k) => `${k} ${mib(before.byKind.get(k) ?? 0)} → ${mib(after.byKind.get(k) ?? 0)}`).join(', ')} MiB |`);
  for (const p of stats.firstProblems) console.log(`  first problems: ${p}`);
  if (stats.errors || stats.misrouted || stats.wrongState) exitCode = 1;
} catch (err) {
  console.error(`soak failed: ${err.stack || err}`);
  for (const s of h.sessions.slice(0, 2)) console.error(`--- ${s.name} stderr tail ---\n${s.stderr.slice(-4000)}`);
  exitCode = 1;
} finally {
  await h.cleanup();
}
process.exit(exitCode);
