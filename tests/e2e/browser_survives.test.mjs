// The browser outlives the page's own declarative tools (issue 30): three
// MCP sessions, each with a browser of its own launched by its shim, loop at
// once through a page pair shaped like the Chrome team's WebMCP "doors" demo
// — the hallway's <form toolname="openDoor1" toolautosubmit> submits to
// doors-forest.html in a new document —, each iteration calling the door,
// then read_page, list_tabs and navigate back to the hallway. That load, on a
// busy machine, is where launched browsers died of a CHECK in the browser
// process (SIGILL, a ud2 trap), set off by our page script's getTools() from a
// document after its pagehide: see docs/behaviour.md "The browser outlives
// cross-document declarative submits". Not one browser may be lost (before
// the fix: 6 of 6 lost within 2-24 iterations; about 1-2 minutes here).
//
// TABBRIDGE_DOORS_ITERATIONS (default 60) and TABBRIDGE_DOORS_BROWSERS
// (default 3) size the loop (the issue's proof: 3 browsers x 60 iterations);
// TABBRIDGE_DOORS_BROWSER_ARGS adds browser switches (`--enable-logging=stderr
// --v=0`: the log a lost browser's report quotes says more, though Chromium
// 156's CHECK itself says nothing there).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { brief, errorText, isAlive, useHarness, waitFor } from './harness.mjs';

const ITERATIONS = Number(process.env.TABBRIDGE_DOORS_ITERATIONS || 60);
const BROWSERS = Number(process.env.TABBRIDGE_DOORS_BROWSERS || 3);
// Three browsers on a two-core machine are slow: one step may take seconds.
const STEP_TIMEOUT_MS = 60_000;
// A door call's answer may come before its submit reached the server.
const SUBMIT_WAIT_MS = 15_000;
const EXTRA_ARGS = (process.env.TABBRIDGE_DOORS_BROWSER_ARGS || '').split(/\s+/).filter(Boolean);
const LOST = /browser connection was lost|not connected to a browser|connect_browser/;

/** What the shim logged of its browser's end ("browser process N exited (status S, signal G)"), or null. */
const browserExit = (s) => /browser process \d+ exited \(status -?\d+, signal \d+\)/.exec(s.stderr)?.[0] ?? null;

/** The last lines of the browser's own log (its stderr, in the profile), without the container's noise (D-Bus, cpufreq). */
function browserLogTail(s) {
  let text = '';
  try {
    text = fs.readFileSync(path.join(s.profileDir, 'tabbridge-browser.log'), 'utf8');
  } catch {
    return '(no browser log)';
  }
  const lines = text.split('\n').filter((l) => l.trim() && !/cpufreq|dbus|UPower|ScreenSaver/.test(l));
  return lines.slice(-25).join('\n') || '(nothing in the browser log)';
}

/** Throws when the session's browser is gone, saying how it went. */
function assertBrowser(s, pid, what) {
  const exit = browserExit(s);
  if (exit || !isAlive(pid)) {
    throw new Error(`[${s.name}] browser ${pid} lost ${what}: ${exit ?? 'the process is gone'}`);
  }
}

/** One step of the loop: its answer, failing when the browser went. */
async function step(s, pid, what, name, args) {
  const r = await s.call(name, args, { timeoutMs: STEP_TIMEOUT_MS });
  assertBrowser(s, pid, what);
  if (r.isError && LOST.test(errorText(r))) throw new Error(`[${s.name}] ${what}: ${errorText(r)}`);
  return r;
}

/** The MCP name of the focused hallway's openDoor1, once the page has listed it. */
async function doorTool(s, pid, what) {
  return waitFor(async () => {
    assertBrowser(s, pid, what);
    const { tools } = await s.client.listTools(undefined, { timeout: STEP_TIMEOUT_MS });
    return tools.find((t) => /^webmcp_.*_openDoor1$/.test(t.name))?.name;
  }, { timeoutMs: STEP_TIMEOUT_MS, what: `[${s.name}] openDoor1 in tools/list ${what}` });
}

/** The doors loop of one session; resolves the number of iterations done. */
async function doorsLoop(s, pid, web, k, { submits, misses }) {
  const hallway = web.url('/doors-hallway.html');
  await step(s, pid, 'opening the hallway', 'open_tab', { url: hallway });
  for (let i = 0; i < ITERATIONS; i++) {
    const at = `at iteration ${i + 1} of ${ITERATIONS}`;
    const door = await doorTool(s, pid, at);
    const knock = `s${k}i${i}`;
    const answer = await step(s, pid, `calling ${door} ${at}`, door, { knock, lantern: 'yes' });
    // Whether the submit reached the forest (the cross-document load happened).
    const reached = await waitFor(() => web.queriesOf('/doors-forest.html').some((q) => q.knock === knock),
      { timeoutMs: SUBMIT_WAIT_MS, what: `[${s.name}] GET /doors-forest.html?knock=${knock} ${at}` }).then(() => true, () => false);
    if (reached) submits.push(i);
    else misses.push(`${at}: ${brief(answer, 400)}`);
    await step(s, pid, `read_page ${at}`, 'read_page', {});
    await step(s, pid, `list_tabs ${at}`, 'list_tabs', {});
    const back = await step(s, pid, `navigate back ${at}`, 'navigate', { url: hallway });
    assert.notEqual(back.isError, true, `[${s.name}] navigate back ${at}: ${errorText(back)}`);
  }
  return ITERATIONS;
}

describe(`${BROWSERS} launched browsers looping the doors flow at once`, { timeout: 1_500_000 }, () => {
  const h = useHarness();

  it(`lose no browser in ${BROWSERS} x ${ITERATIONS} iterations`, async (t) => {
    const web = await h.fixtureServer();
    const sessions = [];
    const pids = [];
    // One launch after the other: three cold starts at once on two cores
    // could miss the launch deadline, which is not what this test is about.
    for (let k = 0; k < BROWSERS; k++) {
      const s = await h.startSession({ name: `doors-${k + 1}`, extraBrowserArgs: EXTRA_ARGS });
      const connected = await s.callOk('connect_browser', { launch: true }, { timeoutMs: 90_000 });
      sessions.push(s);
      pids.push(connected.browser.pid);
    }
    const records = sessions.map(() => ({ submits: [], misses: [] }));
    const outcomes = await Promise.allSettled(sessions.map((s, k) => doorsLoop(s, pids[k], web, k + 1, records[k])));
    // A door call whose submit never reached the server is not what this test
    // is about (the cross-document answer is issue 30's part 4): said, not failed.
    records.forEach((r, k) => {
      t.diagnostic(`${sessions[k].name}: ${r.submits.length} door submits reached the forest` +
        `${r.misses.length ? `; ${r.misses.length} did not: ${r.misses.join(' | ')}` : ''}`);
    });
    const lost = sessions.filter((s, k) => browserExit(s) || !isAlive(pids[k]))
      .map((s) => `${s.name}: ${browserExit(s) ?? 'the process is gone'}\n${browserLogTail(s)}`);
    const failed = outcomes.map((o, k) => (o.status === 'rejected' ? `${sessions[k].name}: ${o.reason?.message ?? o.reason}` : null))
      .filter(Boolean);
    assert.deepEqual(lost, [], `browsers lost (of ${BROWSERS}):\n${lost.join('\n')}\nloops:\n${failed.join('\n')}`);
    assert.deepEqual(failed, [], `loops that did not complete:\n${failed.join('\n')}`);
    for (const [k, r] of records.entries()) {
      assert.ok(r.submits.length > 0, `${sessions[k].name}: no door call submitted its form: ${r.misses.join(' | ')}`);
    }
  });
});
