// The first click in the person's own browser, where the "started debugging
// this browser" bar comes (issue 43): a browser started with the bar on
// (TABBRIDGE_DEBUGGER_BAR=show), the agent's page shown to the person
// (open_tab, then focus_tab {show: true}: the tab in front, as the page the
// person looks at), then snapshot and the first click on the fixture's Submit
// button, timed client to client. Each run waits for the bar of the last to
// go (5 s after the last detach) so that every focus brings it anew.
//   back to back   snapshot and click right after focus_tab (a script)
//   after a pause  BENCH_PERSON_PAUSE_MS (1000) between focus_tab and snapshot,
//                  as a model reading the answer before it acts
// The focus attaches the tab, so the bar's ~150 ms pass during the snapshot
// or the pause; a click the bar has not reached yet waits for it (at most 1 s
// after the attach: worker/debugger_bar.js).
//
// Usage: node bench/person_click.mjs [buildDir]   (BENCH_PERSON_RUNS=5)
// Prints figures only.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveBenchFixture } from './common.mjs';
import { SERVERS, endSession, startSession, text } from './peer_servers.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.resolve(process.argv[2] || process.env.TABBRIDGE_BUILD_DIR || path.join(repo, 'build'));
const runs = Number(process.env.BENCH_PERSON_RUNS || 5);
const pauseMs = Number(process.env.BENCH_PERSON_PAUSE_MS ?? 1000);
const BAR_GONE_MS = 5_500; // Chrome takes the bar down 5 s after the last detach

process.env.TABBRIDGE_DEBUGGER_BAR = 'show';
const def = SERVERS.find((d) => d.name === 'tabbridge');
const { server, url } = await serveBenchFixture();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const since = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

const s = await startSession(def, { build });
try {
  // The first open_tab goes into the launch tab, which headless Chromium
  // reports short from the start (no bar ever reaches it): not the person's page.
  await def.open(s, `${url}?launch-tab`);
  const figures = { 'back to back': [], [`after a ${pauseMs} ms pause`]: [] };
  for (let i = 0; i < runs; i++) {
    for (const [label, pause] of [['back to back', 0], [`after a ${pauseMs} ms pause`, pauseMs]]) {
      await sleep(BAR_GONE_MS); // the last run's tab is closed: nothing of ours attached
      const opened = await s.must('open_tab', { url: `${url}?person=${i}-${pause}`, focus: false });
      const tabId = opened.structuredContent.tab.id;
      await s.must('focus_tab', { tabId, show: true });
      if (pause) await sleep(pause);
      const submit = def.ref(text(await def.snapshot(s)), { role: 'button', name: 'Submit' });
      const t0 = process.hrtime.bigint();
      const r = await def.click(s, submit);
      figures[label].push(since(t0));
      if (r.isError) throw new Error(`click: ${text(r)}`);
      await s.must('close_tab', { tabId });
    }
  }
  console.log(`The first click on the person's page (the bar comes), median of ${runs}, ms:`);
  for (const [label, xs] of Object.entries(figures)) console.log(`  ${label}: ${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(0)).join(', ')})`);
} finally {
  await endSession(s);
  server.close();
}
