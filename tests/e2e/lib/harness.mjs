// The Harness: owns the sessions, temp dirs (0700), fixture servers and
// browsers of one describe() block, and cleans all of it up — after the block
// (useHarness), and as a last resort when the process ends without that
// (exit, SIGINT/SIGTERM/SIGHUP). stepper() skips the steps after a failed one.

import { after, afterEach, before } from 'node:test';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
// The 1.x SDK of the 2025-06-18 revision (an npm alias of @modelcontextprotocol/sdk 1.23.0).
import { Client as Client20250618 } from 'mcp-sdk-2025-06-18/client/index.js';
import { StdioClientTransport as StdioClientTransport20250618 } from 'mcp-sdk-2025-06-18/client/stdio.js';
import * as types20250618 from 'mcp-sdk-2025-06-18/types.js';

import { BASE_BROWSER_ARGS, BROWSER_PATH, SHIM_PATH, requireBuild } from './config.mjs';
import { startFixtureServer } from './fixture_server.mjs';
import { findProcsByMarkers, killAndReap, killQuietly } from './processes.mjs';
import { STDERR_KEEP, Session } from './session.mjs';

// The suite's own policy (startSession's `policy`): every site allowed without asking, local files too.
export const TEST_POLICY = Object.freeze({ default: 'allow', rules: [{ sites: ['file:'], allow: ['all'] }] });

// Last resort when the test process ends without the after() hooks having run
// (a signal, an uncaught error): SIGKILL, synchronously, whatever still carries
// one of the live harnesses' markers.
const liveHarnesses = new Set();
let emergencyInstalled = false;
function installEmergencyCleanup() {
  if (emergencyInstalled) return;
  emergencyInstalled = true;
  const sweep = () => {
    const markers = [...liveHarnesses].flatMap((h) => h.markers());
    for (const pid of findProcsByMarkers(markers)) killQuietly(pid);
    for (const h of liveHarnesses) for (const dir of h.tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', sweep);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      sweep();
      process.exit(128 + (os.constants.signals[sig] ?? 1));
    });
  }
}

/** A fresh temp dir under os.tmpdir(), mode 0700. */
async function makeTempDir(prefix) {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  await fsp.chmod(dir, 0o700);
  return dir;
}

/** Owns the sessions, dirs and browsers of one describe() block. */
export class Harness {
  constructor() {
    this.sessions = [];
    this.tempDirs = [];
    this.servers = [];
    this.extraPids = new Set();
    this.logDir = process.env.TABBRIDGE_E2E_LOG_DIR || null;
    liveHarnesses.add(this);
    installEmergencyCleanup();
  }

  async tempDir(prefix) {
    const dir = await makeTempDir(prefix);
    this.tempDirs.push(dir);
    return dir;
  }

  async fixtureServer(opts) {
    const server = await startFixtureServer(opts);
    this.servers.push(server);
    return server;
  }

  /**
   * Spawns a shim and connects an SDK client to it.
   *   socketDir        reuse another session's socket dir (to attach to its browser)
   *   extraBrowserArgs appended to the standard headless flags
   *   display          an X display (lib/xvfb.mjs startXvfb): the browser runs headful on it
   *   sdk              'v1': @modelcontextprotocol/sdk 1.x, initialize (2025-11-25);
   *                    'v1-2025-06-18': @modelcontextprotocol/sdk 1.23, initialize (2025-06-18);
   *                    'v2': @modelcontextprotocol/client 2.x probing server/discover
   *                    (2026-07-28), list changes on a subscriptions/listen stream
   */
  async startSession({
    name,
    socketDir,
    profileDir,
    extraBrowserArgs = [],
    env = {},
    shimArgs = [],
    isolatedHome = false,
    sdk = 'v1',
    roots = null, // v1: the client declares `roots` and answers roots/list with these directories (session.setRoots)
    // The policy file's contents (docs/policy.md) unless env.TABBRIDGE_POLICY names the test's own: by
    // default every site allowed, local files too — the suite states its policy instead of relying on the
    // product's default (ask the person); null: no file, as a new user has.
    policy = TEST_POLICY,
    elicitation = null, // v1: the client declares `elicitation` and answers elicitation/create with this function
    display = null,
  } = {}) {
    requireBuild();
    name ??= `session${this.sessions.length + 1}`;
    socketDir ??= await this.tempDir('tb-e2e-sock-');
    profileDir ??= await this.tempDir('tb-e2e-prof-');
    // A fresh HOME keeps the browser's Downloads folder (and anything else it
    // writes under ~) inside the test's temp dirs.
    const homeDir = isolatedHome ? await this.tempDir('tb-e2e-home-') : null;
    // The policy and the audit log (docs/policy.md) stay the test's own: no
    // policy file unless a test writes one, and no line in the user's audit log.
    const stateDir = await this.tempDir('tb-e2e-state-');
    if (policy !== null && !env.TABBRIDGE_POLICY) {
      await fsp.writeFile(path.join(stateDir, 'policy.json'), JSON.stringify(policy));
    }
    const old = sdk === 'v1-2025-06-18';
    const Transport = sdk === 'v2' ? StdioClientTransportV2 : old ? StdioClientTransport20250618 : StdioClientTransport;
    const transport = new Transport({
      command: SHIM_PATH,
      args: shimArgs,
      env: {
        ...process.env,
        ...(homeDir ? { HOME: homeDir, XDG_CONFIG_HOME: path.join(homeDir, '.config') } : {}),
        TABBRIDGE_BROWSER: BROWSER_PATH,
        TABBRIDGE_BROWSER_ARGS: [...BASE_BROWSER_ARGS.filter((a) => !(display && a.startsWith('--headless'))),
          ...extraBrowserArgs].join(' '),
        ...(display ? { DISPLAY: display } : {}),
        TABBRIDGE_PROFILE_DIR: profileDir,
        TABBRIDGE_SOCKET_DIR: socketDir,
        TABBRIDGE_POLICY: path.join(stateDir, 'policy.json'),
        XDG_STATE_HOME: stateDir,
        ...env,
      },
      stderr: 'pipe',
    });
    const client =
      sdk === 'v2'
        ? // 'auto': what a dual-era client does on stdio (a server/discover probe, initialize if that fails).
          new ClientV2({ name: 'tabbridge-e2e', version: '0.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } })
        : new (old ? Client20250618 : Client)(
          { name: 'tabbridge-e2e', version: '0.0.0' },
          {
            capabilities: {
              ...(roots ? { roots: { listChanged: true } } : {}),
              ...(elicitation ? { elicitation: {} } : {}),
            },
          },
        );
    let logFile = null;
    if (this.logDir) {
      await fsp.mkdir(this.logDir, { recursive: true });
      logFile = path.join(this.logDir, `${process.pid}-${name}-${Date.now()}.stderr.log`);
    }
    const session = new Session({ name, client, transport, socketDir, profileDir, homeDir, stateDir, logFile, sdk });
    if (roots && sdk !== 'v2') {
      session.roots = [...roots];
      client.setRequestHandler(old ? types20250618.ListRootsRequestSchema : ListRootsRequestSchema, () => {
        session.rootsAsked++;
        return { roots: session.roots.map((dir) => ({ uri: pathToFileURL(dir).href, name: path.basename(dir) })) };
      });
    }
    if (elicitation && sdk !== 'v2') {
      session.elicitations = [];
      client.setRequestHandler(old ? types20250618.ElicitRequestSchema : ElicitRequestSchema, async (request) => {
        session.elicitations.push(request.params);
        return elicitation(request.params);
      });
    }
    if (sdk === 'v2') {
      client.setNotificationHandler('notifications/tools/list_changed', () => session._onListChanged());
      client.setNotificationHandler('notifications/message', (n) => session.messages.push(n.params));
    } else {
      const schemas = old ? types20250618 : { ToolListChangedNotificationSchema, LoggingMessageNotificationSchema };
      client.setNotificationHandler(schemas.ToolListChangedNotificationSchema, () => session._onListChanged());
      client.setNotificationHandler(schemas.LoggingMessageNotificationSchema, (n) => session.messages.push(n.params));
      // A 1.x client hands the revision initialize settled on to its transport, when it takes one.
      transport.setProtocolVersion = (version) => { session.protocolVersion = version; };
    }
    transport.stderr?.on('data', (chunk) => {
      const s = chunk.toString();
      session.stderr = (session.stderr + s).slice(-STDERR_KEEP);
      if (logFile) fs.appendFile(logFile, s, () => {});
    });
    this.sessions.push(session);
    await client.connect(transport);
    // A 2026-07-28 server sends list changes only on a stream the client opens.
    if (sdk === 'v2' && client.getProtocolEra() === 'modern') {
      session.subscription = await client.listen({ toolsListChanged: true });
    }
    // Client.connect installed its own onclose (which fails pending requests); chain ours.
    const clientOnClose = transport.onclose;
    transport.onclose = () => {
      session.exited = true;
      clientOnClose?.();
    };
    return session;
  }

  /** Markers identifying every process spawned on behalf of this harness. */
  markers() {
    return [...this.tempDirs];
  }

  /** Prints the stderr tails of all sessions (used when a test failed). */
  dumpLogs(label) {
    for (const s of this.sessions) {
      const tail = s.stderr.slice(-8192);
      process.stderr.write(
        `\n----- stderr of shim "${s.name}" (pid ${s.pid ?? '?'})${label ? ` after failure of "${label}"` : ''}` +
          `${s.logFile ? `, full log: ${s.logFile}` : ''} -----\n${tail || '(empty)'}\n----- end -----\n`,
      );
    }
  }

  async cleanup() {
    await Promise.allSettled(this.sessions.map((s) => s.close()));
    const pids = new Set(this.extraPids);
    for (const s of this.sessions) {
      for (const p of s.browserPids) pids.add(p);
      if (s.pid) pids.add(s.pid);
    }
    await killAndReap({ pids: [...pids], markers: this.markers() });
    await Promise.allSettled(this.servers.map((srv) => srv.close()));
    for (const dir of this.tempDirs) {
      await fsp.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch((err) => {
        process.stderr.write(`[e2e cleanup] could not remove ${dir}: ${err.message}\n`);
      });
    }
    this.sessions = [];
    this.tempDirs = [];
    this.servers = [];
    liveHarnesses.delete(this);
  }
}

/**
 * Call inside describe(): checks the build before the block, cleans up after
 * it, prints the shims' stderr when a test fails. Returns the Harness.
 */
export function useHarness() {
  const h = new Harness();
  before(() => requireBuild());
  afterEach((t) => {
    if (t.passed === false) h.dumpLogs(t.name);
  });
  after(() => h.cleanup(), { timeout: 60_000 });
  return h;
}

/**
 * For describe() blocks whose tests are consecutive steps on one shared
 * state: once a step fails, the following steps are skipped rather than
 * failing with confusing follow-on errors.
 */
export function stepper() {
  let failed = null;
  return (fn) => async (t) => {
    if (failed) {
      t.skip(`an earlier step failed: ${failed}`);
      return;
    }
    try {
      await fn(t);
    } catch (err) {
      failed = t.name;
      throw err;
    }
  };
}
