// Configuration of the e2e suite: where the build, the browser and the
// fixtures are, the standard browser flags, the deadlines every helper uses,
// the core tool sets of the seed-000 state machine, and requireBuild() (fails
// fast, with a clear message, when a binary or the browser is missing).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { WORKER_BUNDLE, workerBundle } from '../../../codegen/worker_bundle.mjs';

// tests/e2e (this file is in tests/e2e/lib).
const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const BUILD_DIR = path.resolve(process.env.TABBRIDGE_BUILD_DIR || path.resolve(E2E_DIR, '../../build'));
export const SHIM_PATH = path.join(BUILD_DIR, 'bin', 'tabbridge');
export const HOST_PATH = path.join(BUILD_DIR, 'bin', 'tabbridge-host');
export const BROWSER_PATH = process.env.TABBRIDGE_BROWSER || '/usr/bin/chromium';
export const BASE_BROWSER_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];
export const FIXTURES_DIR = path.join(E2E_DIR, 'fixtures');
/** tests/e2e/node_modules (the fixture server serves @mcp-b/global from it). */
export const NODE_MODULES_DIR = path.join(E2E_DIR, 'node_modules');

// Deadlines (generous: a cold Chromium launch takes a few seconds).
export const LAUNCH_TIMEOUT_MS = 45_000; // connect_browser {launch:true}
export const CALL_TIMEOUT_MS = 15_000; // any other request
export const EVENT_TIMEOUT_MS = 10_000; // browser-side events reaching a session

// Tool names of the state machine (seed 000).
export const CORE_TOOLS = ['connect_browser', 'list_tabs', 'open_tab', 'focus_tab', 'close_tab'];
export const TOOLS_DISCONNECTED = ['connect_browser'];
export const TOOLS_NO_TABS = ['list_tabs', 'open_tab'];
export const TOOLS_TABS_UNFOCUSED = ['list_tabs', 'open_tab', 'focus_tab'];
export const TOOLS_FOCUSED_CORE = ['list_tabs', 'open_tab', 'focus_tab', 'close_tab'];

let bundleChecked = false;

/** Throws a clear error (fast) when the build or the browser is missing, or the worker's bundle is stale. */
export function requireBuild() {
  const problems = [];
  for (const [what, p] of [
    ['MCP shim', SHIM_PATH],
    ['native host', HOST_PATH],
  ]) {
    try {
      fs.accessSync(p, fs.constants.X_OK);
    } catch {
      problems.push(`${what} binary not found (or not executable) at ${p}`);
    }
  }
  try {
    fs.accessSync(BROWSER_PATH, fs.constants.X_OK);
  } catch {
    problems.push(`browser not found at ${BROWSER_PATH} (set TABBRIDGE_BROWSER)`);
  }
  if (!bundleChecked) {
    // The browser runs the worker's bundle, not its modules: a module edited
    // since the bundle was written would leave the test running old code.
    const root = path.resolve(E2E_DIR, '../..');
    if (fs.readFileSync(path.join(root, WORKER_BUNDLE), 'utf8') !== workerBundle(root)) {
      throw new Error(`${WORKER_BUNDLE} is not the bundle of extension/worker/main.js and its imports as they are now: ` +
        'run `node codegen/generate.mjs` (the browser runs that file, not the modules)');
    }
    bundleChecked = true;
  }
  if (problems.length) {
    throw new Error(
      `${problems.join('; ')}. Build tabbridge first (e.g. cmake -B build && cmake --build build) ` +
        `or point TABBRIDGE_BUILD_DIR at a build directory containing bin/tabbridge and bin/tabbridge-host.`,
    );
  }
}
