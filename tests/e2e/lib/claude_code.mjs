// The real Claude Code CLI (@anthropic-ai/claude-code, pinned in
// package.json) against the build's shim, with no network and no model:
// runClaude() runs `claude -p` with HOME in a temp dir, a dummy API key,
// ANTHROPIC_BASE_URL at a model stand-in (lib/model_stand_in.mjs) and an
// --mcp-config naming only the shim (--strict-mcp-config), its env the same
// as a Harness session's (socket, profile and state dirs of the test's own,
// the suite's policy, headless browser flags), so `connect_browser {launch:
// true}` starts headless Chromium with our extension. It returns the CLI's
// exit code and output, its stream-json events, and what the stand-in
// logged; then it kills and reaps what the run left (the shim, the browser it
// launched, the host), through the harness's processes.mjs, by the run's
// temp dirs. claudeMcp() runs `claude mcp …` (add, list) with HOME in a temp
// dir. `tap: true` puts lib/stdio_tap.mjs between Claude Code and the shim:
// every MCP message with its time (run.mcp).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { BASE_BROWSER_ARGS, BROWSER_PATH, NODE_MODULES_DIR, SHIM_PATH } from './config.mjs';
import { closedPort } from './fixture_server.mjs';
import { TEST_POLICY } from './harness.mjs';
import { killAndReap } from './processes.mjs';
import { STDIO_TAP, readTap } from './stdio_tap.mjs';

const CLAUDE_VERSION = '2.1.332';

/**
 * The Claude Code binary: the native one of this platform's package (what
 * the wrapper's postinstall copies to bin/claude.exe; taken directly so an
 * install without scripts works too), else node_modules/.bin/claude.
 */
export function claudePath() {
  const libc = process.platform === 'linux' && !process.report?.getReport?.().header?.glibcVersionRuntime ? '-musl' : '';
  const native = path.join(NODE_MODULES_DIR, '@anthropic-ai', `claude-code-${process.platform}-${process.arch}${libc}`, 'claude');
  if (fs.existsSync(native)) return native;
  return path.join(NODE_MODULES_DIR, '.bin', 'claude');
}

/** Throws a clear error when the pinned CLI is not installed. */
export function requireClaude() {
  const bin = claudePath();
  try {
    fs.accessSync(bin, fs.constants.X_OK);
  } catch {
    throw new Error(`Claude Code not found at ${bin}: run \`npm ci\` in tests/e2e (it installs @anthropic-ai/claude-code ${CLAUDE_VERSION})`);
  }
  return bin;
}

/** The environment of the CLI: none of the developer's own Anthropic or Claude settings. */
function claudeEnv(homeDir, extra = {}) {
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ'];
  const env = Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
  return {
    ...env,
    HOME: homeDir,
    XDG_CONFIG_HOME: path.join(homeDir, '.config'),
    XDG_CACHE_HOME: path.join(homeDir, '.cache'),
    XDG_DATA_HOME: path.join(homeDir, '.local', 'share'),
    ANTHROPIC_API_KEY: 'dummy-key-for-the-stand-in',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    ...extra,
  };
}

/**
 * A tabbridge MCP server entry for Claude Code's config: the build's shim,
 * with the env a Harness session gives its shim, in fresh temp dirs of the
 * harness `h` (so its cleanup reaps whatever carries them). Returns {entry:
 * {command, args, env}, dirs: {socketDir, profileDir, stateDir, shimLog}}.
 *   policy  the policy file's contents (TEST_POLICY: every site allowed); null: no file
 *   tap     a file: lib/stdio_tap.mjs logs every MCP message there
 */
export async function tabbridgeServer(h, { shimArgs = [], env = {}, policy = TEST_POLICY, extraBrowserArgs = [], tap = null } = {}) {
  const socketDir = await h.tempDir('tb-cc-sock-');
  const profileDir = await h.tempDir('tb-cc-prof-');
  const stateDir = await h.tempDir('tb-cc-state-');
  if (policy !== null) await fsp.writeFile(path.join(stateDir, 'policy.json'), JSON.stringify(policy));
  const shimLog = path.join(stateDir, 'shim.log');
  const shimEnv = {
    TABBRIDGE_BROWSER: BROWSER_PATH,
    TABBRIDGE_BROWSER_ARGS: [...BASE_BROWSER_ARGS, ...extraBrowserArgs].join(' '),
    TABBRIDGE_PROFILE_DIR: profileDir,
    TABBRIDGE_SOCKET_DIR: socketDir,
    TABBRIDGE_POLICY: path.join(stateDir, 'policy.json'),
    XDG_STATE_HOME: stateDir,
    TABBRIDGE_LOG_FILE: shimLog,
    TABBRIDGE_LOG_LEVEL: 'debug',
    ...env,
  };
  const entry = tap
    ? { command: process.execPath, args: [STDIO_TAP, tap, '--', SHIM_PATH, ...shimArgs], env: shimEnv }
    : { command: SHIM_PATH, args: shimArgs, env: shimEnv };
  return { entry, dirs: { socketDir, profileDir, stateDir, shimLog } };
}

/** Runs the CLI to its end; resolves {code, signal, stdout, stderr}. Its pid goes to h.extraPids. */
function runCli(h, args, { env, cwd, timeoutMs }) {
  const child = spawn(requireClaude(), args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid) h.extraPids.add(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`claude ${args.slice(0, 2).join(' ')} did not end within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}; stdout: ${stdout.slice(-2000)}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, pid: child.pid });
    });
  });
}

/** Parses newline-delimited JSON (stream-json output); lines that are not JSON are skipped. */
function jsonLines(text) {
  return text.split('\n').filter((l) => l.trim()).flatMap((l) => {
    try {
      return [JSON.parse(l)];
    } catch {
      return [];
    }
  });
}

/**
 * Runs `claude -p <prompt>` with tabbridge as its only MCP server, against
 * `standIn` (startModelStandIn). Options:
 *   server       tabbridgeServer()'s result (made here from `serverOptions` when absent)
 *   tap          log every MCP message (lib/stdio_tap.mjs): run.mcp
 *   allowedTools default "mcp__tabbridge ToolSearch"
 *   serverName   the server's name in the MCP config (default "tabbridge"; tools are mcp__<name>__<tool>):
 *                another server (a peer of the benches) is `server` {entry: {command, args, env}, dirs}
 *   args         more CLI arguments
 * Resolves {code, stdout, stderr, events (stream-json), result (its last
 * "result" event), init (its "system"/"init" event), requests, turns,
 * mcp, shimLog, dirs, homeDir}. Kills and reaps what the run left unless
 * keep is set (the harness's cleanup does it then).
 */
export async function runClaude(h, {
  prompt,
  standIn,
  server = null,
  serverOptions = {},
  tap = false,
  allowedTools = 'mcp__tabbridge ToolSearch',
  serverName = 'tabbridge',
  args = [],
  env = {},
  timeoutMs = 240_000,
  keep = false,
} = {}) {
  const homeDir = await h.tempDir('tb-cc-home-');
  const tapFile = tap ? path.join(homeDir, 'mcp-tap.log') : null;
  server ??= await tabbridgeServer(h, { ...serverOptions, tap: tapFile });
  const configFile = path.join(homeDir, 'mcp.json');
  await fsp.writeFile(configFile, JSON.stringify({ mcpServers: { [serverName]: server.entry } }, null, 2));
  const workDir = path.join(homeDir, 'work');
  await fsp.mkdir(workDir);
  let cli;
  try {
    cli = await runCli(h, [
      '-p', prompt,
      '--mcp-config', configFile,
      '--strict-mcp-config',
      '--allowedTools', allowedTools,
      '--output-format', 'stream-json',
      '--verbose',
      ...args,
    ], { env: claudeEnv(homeDir, { ANTHROPIC_BASE_URL: standIn.url, ...env }), cwd: workDir, timeoutMs });
  } finally {
    // What the run left (the shim, the browser it launched, the host), also when the CLI timed out.
    if (!keep) await reapRun(h, { pid: cli?.pid, homeDir, dirs: server.dirs });
  }
  const events = jsonLines(cli.stdout);
  const run = {
    ...cli,
    events,
    result: events.filter((e) => e.type === 'result').at(-1) ?? null,
    init: events.find((e) => e.type === 'system' && e.subtype === 'init') ?? null,
    requests: standIn.requests,
    turns: standIn.turns,
    mcp: tapFile ? readTap(tapFile) : null,
    shimLog: server.dirs.shimLog ? await fsp.readFile(server.dirs.shimLog, 'utf8').catch(() => '') : '',
    dirs: server.dirs,
    homeDir,
  };
  return run;
}

/** Kills and reaps every process carrying one of the run's dirs (the shim, its browser, the host). */
export async function reapRun(h, run) {
  const markers = [run.homeDir, ...Object.values(run.dirs).filter((d) => !d.endsWith('.log'))];
  await killAndReap({ pids: run.pid ? [run.pid] : [], markers });
}

/**
 * `claude mcp <args…>` (add, list, get, remove) with HOME `homeDir` (a temp
 * dir of h when absent) and cwd inside it; resolves {code, stdout, stderr,
 * homeDir}. ANTHROPIC_BASE_URL is `baseUrl`, by default a closed port on
 * 127.0.0.1: left unset, `claude mcp list` resolves api.anthropic.com first
 * and, with no network, waits about 18 s for DNS to give up.
 */
export async function claudeMcp(h, args, { homeDir = null, env = {}, baseUrl = null, timeoutMs = 120_000 } = {}) {
  homeDir ??= await h.tempDir('tb-cc-home-');
  const workDir = path.join(homeDir, 'work');
  await fsp.mkdir(workDir, { recursive: true });
  baseUrl ??= `http://127.0.0.1:${await closedPort()}`;
  const cli = await runCli(h, ['mcp', ...args], { env: claudeEnv(homeDir, { ANTHROPIC_BASE_URL: baseUrl, ...env }), cwd: workDir, timeoutMs });
  return { ...cli, homeDir };
}

/** `-e KEY=VALUE` arguments of `claude mcp add` for a tabbridgeServer()'s env. */
export function mcpAddEnvArgs(entry) {
  return Object.entries(entry.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
}

/** What to print when a Claude Code test fails: the CLI's stderr, the agent's log, the MCP messages, the shim's log. */
export function describeRun(run, agent = null) {
  const lines = [`claude exit ${run.code}${run.signal ? ` (${run.signal})` : ''}; ${run.turns.length} model turns`];
  if (agent) lines.push(`agent: ${JSON.stringify(agent.log)}`);
  if (run.stderr.trim()) lines.push(`claude stderr: ${run.stderr.slice(-3000)}`);
  if (run.mcp) {
    const t0 = run.mcp[0]?.at ?? 0;
    lines.push('mcp:', ...run.mcp.map((m) => `  +${(m.at - t0).toFixed(0)} ms ${m.dir} ${JSON.stringify(m.msg).slice(0, 300)}`));
  }
  if (run.shimLog) lines.push(`shim log (tail): ${run.shimLog.slice(-4000)}`);
  return lines.join('\n');
}
