// A virtual X display (Debian's `xvfb`, install/deps.sh --test) for the tests
// that need the browser to show windows — the person's surface is a window of
// its own, and a headless browser says it has no person to ask. startXvfb(h)
// picks a free display number, starts `Xvfb :N`, waits (with a deadline) for
// its socket /tmp/.X11-unix/XN and hands its pid to the harness, which kills
// it after the block. Pass the display to startSession({display}) (or
// startPageBrowser): the browser then runs headful on it.

import { spawn } from 'node:child_process';
import fs from 'node:fs';

import { EVENT_TIMEOUT_MS } from './config.mjs';
import { waitFor } from './wait.mjs';

const X_SOCKETS = '/tmp/.X11-unix';
const FIRST_DISPLAY = 90; // above what a desktop or CI runner uses
const LAST_DISPLAY = 189;
export const XVFB_PATH = process.env.TABBRIDGE_XVFB || '/usr/bin/Xvfb';

const taken = (n) => fs.existsSync(`${X_SOCKETS}/X${n}`) || fs.existsSync(`/tmp/.X${n}-lock`);

/** Whether Xvfb is installed (install/deps.sh --test). */
export const haveXvfb = () => {
  try {
    fs.accessSync(XVFB_PATH, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Starts Xvfb on a free display; resolves to {display: ':N', pid}. Another
 * process may take the same number between the check and the start: Xvfb
 * then exits at once ("server is already active"), and the next is tried.
 */
export async function startXvfb(h, { width = 1280, height = 900, fbdir = null } = {}) {
  if (!haveXvfb()) throw new Error(`Xvfb not found at ${XVFB_PATH}: run install/deps.sh --test (Debian's xvfb package)`);
  for (let n = FIRST_DISPLAY + (process.pid % 50); n <= LAST_DISPLAY; n++) {
    if (taken(n)) continue;
    // fbdir: the screen is also the file <fbdir>/Xvfb_screen0 (XWD), for a picture of the whole screen.
    const args = [`:${n}`, '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset', ...(fbdir ? ['-fbdir', fbdir] : [])];
    const child = spawn(XVFB_PATH, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4096); });
    let exited = false;
    child.once('exit', () => { exited = true; });
    h.extraPids.add(child.pid);
    process.once('exit', () => child.kill('SIGKILL')); // the harness's own sweep knows only its markers
    const up = await waitFor(() => (exited ? 'exited' : fs.existsSync(`${X_SOCKETS}/X${n}`) ? 'up' : null), {
      timeoutMs: EVENT_TIMEOUT_MS,
      what: `Xvfb's socket ${X_SOCKETS}/X${n}`,
    });
    if (up === 'up') return { display: `:${n}`, pid: child.pid };
    h.extraPids.delete(child.pid);
    if (!/already active|Cannot establish any listening sockets/.test(stderr)) {
      throw new Error(`Xvfb :${n} exited at start: ${stderr.trim() || '(no message)'}`);
    }
  }
  throw new Error(`no free X display between :${FIRST_DISPLAY} and :${LAST_DISPLAY}`);
}
