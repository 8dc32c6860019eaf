// The same three scripted tasks in the real Claude Code CLI (issue 41) for
// tabbridge (each of its surfaces: --surface state, state-pinned, stable,
// stable-deferred), Playwright MCP and chrome-devtools-mcp: what each costs the
// model, counted from the requests Claude Code really sends.
//
// Each run is `claude -p` (@anthropic-ai/claude-code, pinned in
// tests/e2e/package.json) with one MCP server (--mcp-config,
// --strict-mcp-config, --allowedTools "mcp__<server> ToolSearch"), HOME in a
// temp dir, a dummy API key, no network: ANTHROPIC_BASE_URL is the scripted
// stand-in for the Messages API (tests/e2e/lib/model_stand_in.mjs) answering
// each turn after a fixed delay (--delay, ms). The model is a script
// (tests/e2e/lib/scripted_agent.mjs) along each server's own shortest path
// (claude_code_tasks.mjs): it calls a tool when the request carries its
// schema, else loads it first with ToolSearch "select:<names>" — the peers
// load all the tools of the task in that one search; tabbridge uses the
// page's own tools (form_…, select_…, press_…, webmcp_…) where the request
// announces them, else (not announced in time) does the step with snapshot
// and its generic tools, as a model would. Then the bench reads the page's end
// state (the fixtures report it to the fixture server, POST /report) and
// whether the model was shown what it was to read: a run that did not do the
// task is FAIL and its figures are left out.
//
// Tasks (bench/fixtures, served on 127.0.0.1 by fixture_server.mjs):
//   signup   sign up (signup.html?next=welcome.html: 6 fields), then press Like on the page it lands on
//   search   store.html: search "kettle", open the second result, read its price
//   flights  flights.html: a <form toolname="search_flights" toolautosubmit>; search PAR → NYC on a day
//            (tabbridge: the page's own form tool as it lists it; the peers: their generic tools)
//
// Figures per run, from the stand-in's log of the requests of kind `turn`:
//   turns        model turns (requests that offer tools)
//   sent         bytes of all turn requests (their JSON)
//   not prefix   bytes of each request past its longest common prefix with the
//                previous turn's, serialised as the API caches it: `tools`,
//                then `system`, then `messages`, each as JSON, cache_control
//                markers left out (they mark where to cache, they are not the
//                content) and a text-only content as a list of text blocks
//                (Claude Code sends one message first as blocks, then as a
//                string); the first request counts whole. What a prompt cache
//                cannot serve: a change in `tools` (a ToolSearch loading a
//                schema, a pinned tool added) costs everything after it.
//   ToolSearch   ToolSearch calls; errors: tool results the model saw as errors
//                (is_error, "No matching deferred tools")
// The table gives the median over --runs runs of the runs that passed.
//
// Usage: node bench/claude_code.mjs [buildDir] [--delay 0,1000] [--runs 3]
//          [--servers tabbridge:stable,playwright,...] [--tasks signup,search,flights] [--verbose] [--dump DIR]
//   servers: tabbridge:state, tabbridge:state-pinned, tabbridge:stable, tabbridge:stable-deferred, tabbridge:dispatch (the
//            page's own tools where announced), tabbridge:<surface>:generic (its generic tools only),
//            playwright, chrome-devtools (default: the four surfaces, tabbridge:stable:generic and both
//            peers; `tabbridge`: every tabbridge one of them); --verbose prints each turn of the first run;
//            --dump writes every turn's request of the last run of each to DIR/<task>-<delay>-<server>/
// Needs: cd tests/e2e && npm ci (Claude Code); cd bench/peers && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci.
// Prints figures only: nothing is asserted on time or bytes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    delay: { type: 'string', default: '0,1000' },
    runs: { type: 'string', default: '3' },
    servers: { type: 'string', default: '' },
    tasks: { type: 'string', default: '' },
    verbose: { type: 'boolean', default: false },
    dump: { type: 'string', default: '' },
  },
});
const build = path.resolve(positionals[0] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
process.env.TABBRIDGE_BUILD_DIR = build; // tests/e2e/lib/config.mjs reads it when imported
const delays = opts.delay.split(',').map(Number);
const runs = Number(opts.runs);

const { Harness } = await import('../tests/e2e/lib/harness.mjs');
const { requireBuild } = await import('../tests/e2e/lib/config.mjs');
const { requireClaude, runClaude, tabbridgeServer } = await import('../tests/e2e/lib/claude_code.mjs');
const { requestBytes, startModelStandIn, toolFailures, toolUses } = await import('../tests/e2e/lib/model_stand_in.mjs');
const { TASKS, flowFor } = await import('./claude_code_tasks.mjs');
const { scriptedAgent } = await import('../tests/e2e/lib/scripted_agent.mjs');
const { findProcsByMarkers } = await import('../tests/e2e/lib/processes.mjs');
const { serveBenchPages } = await import('./fixture_server.mjs');
const { BROWSER, PEERS_DIR, SERVERS } = await import('./peer_servers.mjs');

// ------------------------------------------------------------------ servers

// The policy a bench runs tabbridge with: every site allowed without asking (common.mjs benchPolicy).
const BENCH_POLICY = { default: 'allow', rules: [{ sites: ['file:'], allow: ['all'] }] };
const peerVersion = (name) => JSON.parse(fs.readFileSync(path.join(PEERS_DIR, name, 'package.json'), 'utf8')).version;
const refFinder = (name) => SERVERS.find((s) => s.name === name).ref; // peer_servers.mjs: a ref/uid in a snapshot's text

// tabbridge on each surface, using the page's own tools where the request announces them; and, for
// comparison, on the stable surface with its generic tools only (`:generic`: snapshot, fill_form, click, type).
const tabbridgeConfig = (surface, generic = false) => ({
  id: `tabbridge:${surface}${generic ? ':generic' : ''}`, kind: 'tabbridge', server: 'tabbridge', surface, generic,
  title: `tabbridge --surface ${surface}${generic ? ', generic tools only' : ''}`, ref: refFinder('tabbridge'),
});
const SURFACES = ['state', 'state-pinned', 'stable', 'stable-deferred', 'dispatch'];
const CONFIGS = [
  ...SURFACES.map((surface) => tabbridgeConfig(surface)),
  tabbridgeConfig('stable', true),
  { id: 'playwright', kind: 'playwright', server: 'playwright', title: 'Playwright MCP', version: () => peerVersion('@playwright/mcp'), ref: refFinder('playwright-mcp') },
  { id: 'chrome-devtools', kind: 'cdp', server: 'chrome-devtools', title: 'chrome-devtools-mcp', version: () => peerVersion('chrome-devtools-mcp'), ref: refFinder('chrome-devtools-mcp') },
];

// The MCP config entry of a peer, as peer_servers.mjs starts it (its own headless /usr/bin/chromium, no
// sandbox for root, a temporary profile). TMPDIR and BENCH_CC_RUN are the run's temp dir: the peer's
// browser profile lands in it and every process it starts carries it, so the run's cleanup finds them.
async function peerServer(h, cfg) {
  const tmp = await h.tempDir('tb-ccb-peer-');
  const env = { TMPDIR: tmp, BENCH_CC_RUN: tmp };
  const entry = cfg.kind === 'playwright'
    ? {
      command: process.execPath,
      args: [path.join(PEERS_DIR, '@playwright/mcp/cli.js'), '--headless', '--isolated', '--no-sandbox', '--executable-path', BROWSER],
      env: { ...env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    }
    : {
      command: process.execPath,
      args: [path.join(PEERS_DIR, 'chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'), '--headless', '--isolated',
        `--executablePath=${BROWSER}`, '--chromeArg=--no-sandbox', '--no-usage-statistics', '--no-performance-crux'],
      env: { ...env, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' },
    };
  return { entry, dirs: { tmp } };
}

// ----------------------------------------------------------------- figures

// A request as the API caches it: tools, system, messages, each as JSON. Left out or made alike what does
// not change the prompt the model is given: cache_control markers (where to cache, not what), and the two
// spellings of a text-only content, a string and one text block (Claude Code sends the environment's
// system message as blocks in the first request and as a string in the next ones).
const asBlocks = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);
const cacheParts = (body) => [
  body?.tools ?? null,
  asBlocks(body?.system ?? null),
  (body?.messages ?? []).map((m) => ({ ...m, content: asBlocks(m.content) })),
].map((part) => Buffer.from(JSON.stringify(part, (key, value) => (key === 'cache_control' ? undefined : value))));

function commonPrefix(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

function figures(turns) {
  let prev = null;
  const perTurn = turns.map((t) => {
    const parts = cacheParts(t.body);
    const ser = Buffer.concat(parts);
    const common = prev ? commonPrefix(prev, ser) : 0;
    prev = ser;
    // Where the prefix broke: the part holding its first differing byte.
    let brokeIn = '-';
    for (let i = 0, at = 0; i < parts.length && common < ser.length; at += parts[i++].length) {
      if (common < at + parts[i].length) {
        brokeIn = ['tools', 'system', 'messages'][i];
        break;
      }
    }
    return { bytes: requestBytes(t.body), notPrefix: ser.length - common, brokeIn };
  });
  const last = turns.at(-1)?.body;
  return {
    turns: turns.length,
    sent: perTurn.reduce((n, t) => n + t.bytes, 0),
    notPrefix: perTurn.reduce((n, t) => n + t.notPrefix, 0),
    toolSearch: last ? toolUses(last).filter((u) => u.name === 'ToolSearch').length : 0,
    errors: last ? toolFailures(last).length : 0,
    perTurn,
  };
}

// --------------------------------------------------------------------- runs

const reports = [];
const { server: web, origin } = await serveBenchPages({ reports });
const markersSeen = [];

async function runOnce(cfg, task, delayMs) {
  reports.length = 0;
  const h = new Harness();
  const url = origin + task.path;
  const notes = [];
  const agent = scriptedAgent(flowFor(cfg, task, url, notes), { done: 'Done.' });
  const standIn = await startModelStandIn({ script: agent.script, delayMs });
  const out = { pass: false };
  let run = null;
  const t0 = performance.now();
  try {
    const server = cfg.kind === 'tabbridge'
      ? await tabbridgeServer(h, { shimArgs: ['--surface', cfg.surface], policy: BENCH_POLICY })
      : await peerServer(h, cfg);
    run = await runClaude(h, {
      prompt: task.prompt(url), standIn, server, serverName: cfg.server,
      allowedTools: `mcp__${cfg.server} ToolSearch`, timeoutMs: 300_000,
    });
    out.wallMs = performance.now() - t0;
    Object.assign(out, figures(run.turns));
    out.log = agent.log;
    out.notes = notes;
    if (opts.dump) {
      const dir = path.join(opts.dump, `${task.name}-${delayMs}-${cfg.id.replace(':', '-')}`);
      fs.mkdirSync(dir, { recursive: true });
      run.turns.forEach((t, i) => fs.writeFileSync(path.join(dir, `turn${i}.json`), JSON.stringify(t.body, null, 1)));
    }
    const why = run.code !== 0 ? `claude exited ${run.code}: ${run.stderr.slice(-300)}`
      : standIn.errors.length ? `the script threw: ${standIn.errors[0].message}`
        : agent.gaveUp ? `the model gave up: ${agent.gaveUp}`
          : !agent.finished ? 'the model did not finish'
            : task.verify(reports, run);
    out.pass = !why;
    out.detail = why;
  } catch (e) {
    out.detail = e.message.slice(0, 600);
  } finally {
    await standIn.close();
    markersSeen.push(...h.markers());
    await h.cleanup();
  }
  if (!out.pass && run) {
    const failures = run.turns.length ? toolFailures(run.turns.at(-1).body) : [];
    if (failures.length) out.detail += `; tool errors: ${JSON.stringify(failures).slice(0, 600)}`;
  }
  return out;
}

const median = (values) => {
  const v = [...values].sort((a, b) => a - b);
  return v.length ? v[Math.floor((v.length - 1) / 2)] : NaN;
};
const n = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–');
const kib = (x) => (Number.isFinite(x) ? `${(x / 1024).toFixed(1)}` : '–');

requireBuild();
requireClaude();
const only = opts.servers ? opts.servers.split(',') : null;
// Any tabbridge surface can run with its generic tools only: tabbridge:<surface>:generic.
const extra = (only ?? []).filter((id) => /^tabbridge:[a-z-]+:generic$/.test(id) && !CONFIGS.some((c) => c.id === id))
  .map((id) => tabbridgeConfig(id.split(':')[1], true)).filter((c) => SURFACES.includes(c.surface));
const configs = [...CONFIGS, ...extra].filter((c) => !only || only.includes(c.id) || (only.includes('tabbridge') && c.kind === 'tabbridge'));
if (configs.some((c) => c.kind !== 'tabbridge') && !fs.existsSync(PEERS_DIR)) {
  console.error('peers not installed: (cd bench/peers && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci)');
  process.exit(2);
}
const tasks = TASKS.filter((t) => !opts.tasks || opts.tasks.split(',').includes(t.name));
const titleOf = (c) => (c.version ? `${c.title} ${c.version()}` : c.title);

console.log(`Claude Code ${JSON.parse(fs.readFileSync(path.join(repo, 'tests/e2e/node_modules/@anthropic-ai/claude-code/package.json'), 'utf8')).version}` +
  `, ${path.basename(BROWSER)} headless, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), build ${build}; ` +
  `${runs} run(s) each; figures: median of the runs that passed`);

try {
  for (const delayMs of delays) {
    for (const task of tasks) {
      const columns = [];
      for (const cfg of configs) {
        const all = [];
        for (let i = 0; i < runs; i++) {
          const r = await runOnce(cfg, task, delayMs);
          all.push(r);
          process.stderr.write(`[${task.name} ${delayMs} ms ${cfg.id} #${i + 1}] ${r.pass ? 'PASS' : 'FAIL'} ` +
            `${r.turns ?? '?'} turns, ${n(r.sent)} B, ${n(r.notPrefix)} B not prefix, ${n(r.wallMs)} ms` +
            `${r.notes?.length ? ` (${r.notes.join('; ')})` : ''}` +
            `${r.detail ? ` — ${r.detail}` : ''}\n`);
        }
        const passed = all.filter((r) => r.pass);
        const pick = (key) => median(passed.map((r) => r[key]));
        columns.push({ cfg, all, passed, turns: pick('turns'), sent: pick('sent'), notPrefix: pick('notPrefix'), toolSearch: pick('toolSearch'), errors: pick('errors') });
      }
      console.log(`\n### ${task.label}; model answers after ${delayMs} ms\n`);
      console.log(`| figure | ${columns.map((c) => titleOf(c.cfg)).join(' | ')} |`);
      console.log(`|---|${columns.map(() => '---|').join('')}`);
      const row = (figure, f) => console.log(`| ${figure} | ${columns.map(f).join(' | ')} |`);
      row('model turns', (c) => n(c.turns));
      row('sent, KiB', (c) => kib(c.sent));
      row('**not prefix, KiB**', (c) => `**${kib(c.notPrefix)}**`);
      row('ToolSearch calls', (c) => n(c.toolSearch));
      row('tool errors', (c) => n(c.errors));
      row('runs passed', (c) => `${c.passed.length} of ${c.all.length}`);
      if (columns.some((c) => c.all.some((r) => r.notes?.length))) {
        row('runs whose own tool was not announced in time (generic tools instead)', (c) => (c.cfg.kind === 'tabbridge' ? c.all.filter((r) => r.notes?.length).length : ''));
      }
      const ours = columns.filter((c) => c.cfg.kind === 'tabbridge' && c.passed.length);
      const peers = columns.filter((c) => c.cfg.kind !== 'tabbridge' && c.passed.length);
      if (ours.length && peers.length) {
        const best = (list, key) => list.reduce((a, b) => (b[key] < a[key] ? b : a));
        const bestPeer = best(peers, 'notPrefix');
        const fewestPeerTurns = Math.min(...peers.map((c) => c.turns));
        for (const c of ours) {
          console.log(`- ${c.cfg.title}: ${c.turns} turns (fewest of a peer ${fewestPeerTurns}), not prefix ` +
            `${(c.notPrefix / bestPeer.notPrefix).toFixed(2)}× ${bestPeer.cfg.title}'s`);
        }
      }
      for (const c of columns) {
        for (const r of c.all.filter((x) => !x.pass)) console.log(`- ${c.cfg.title} FAIL: ${r.detail}`);
        if (opts.verbose && c.all[0]?.perTurn) {
          const r = c.all[0];
          console.log(`- ${c.cfg.title}, run 1, turn by turn (action; request bytes; not prefix; where the prefix broke):`);
          r.perTurn.forEach((t, i) => {
            const step = r.log.find((l) => l.turn === i && l.action !== 'branch');
            const what = step ? `${step.action} ${step.name ?? ''}${step.query ? ` (${step.query})` : ''}` : '?';
            console.log(`    ${i}: ${what.replace(/mcp__[a-z-]+__/g, '')}; ${n(t.bytes)}; ${n(t.notPrefix)}; ${t.brokeIn}`);
          });
        }
      }
    }
  }
} finally {
  web.close();
  const left = findProcsByMarkers(markersSeen);
  if (left.length) console.error(`note: processes of the runs still alive: ${left.join(', ')}`);
}
