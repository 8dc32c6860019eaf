// The request log (network_requests, network_request: --caps network) is kept
// only while some session has the network capability (docs/protocol.md
// host.state networkLog): without one the extension has none of its
// webRequest listeners and sends no Network.enable to the tabs it attaches;
// a session with it brings both (on the tabs already attached too), and when
// it ends they go. Ground truth: the worker's own chrome.webRequest and its
// chrome.debugger.sendCommand, wrapped over DevTools to log each command.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, waitFor, workerEval } from './harness.mjs';
import { bodyText, startPageBrowser } from './page_helpers.mjs';

// Wraps chrome.debugger.sendCommand in the worker (once per worker) and empties its log.
const startLog = (env) => workerEval(env.port, `(() => {
  const d = chrome.debugger;
  if (!globalThis.__cdpLog) {
    globalThis.__cdpLog = [];
    const original = d.sendCommand.bind(d);
    d.sendCommand = (target, method, params, ...rest) => {
      globalThis.__cdpLog.push({ tabId: target.tabId, method });
      return original(target, method, params, ...rest);
    };
  }
  globalThis.__cdpLog.length = 0;
  return true;
})()`);
const networkCommands = async (env, tabId) =>
  JSON.parse(await workerEval(env.port, 'JSON.stringify(globalThis.__cdpLog)'))
    .filter((e) => e.tabId === tabId && e.method.startsWith('Network.') && e.method !== 'Network.emulateNetworkConditions')
    .map((e) => e.method);

// Only the request log listens to onSendHeaders and onBeforeRedirect (network_log.js, kept always, does not).
const logListening = async (env) => (await workerEval(env.port,
  'String(chrome.webRequest.onSendHeaders.hasListeners() || chrome.webRequest.onBeforeRedirect.hasListeners())')) === 'true';

describe('the request log only while a session has network', { timeout: 150_000 }, () => {
  const h = useHarness();
  let env;
  let A;

  before(async () => {
    env = await startPageBrowser(h, { name: 'netlog' }); // no --caps network
    A = env.s;
  });

  it('none without a network session; a network session starts it on the attached tab, and its end stops it', async (t) => {
    await startLog(env);
    const tab = await env.open('/network.html', { t });
    await env.snapshot(); // the debugger attaches
    assert.equal(await logListening(env), false, 'the request log listens with no network session');
    assert.deepEqual(await networkCommands(env, tab.tabId), [], 'Network commands on attach with no network session');

    const B = await h.startSession({ name: 'netlog-B', socketDir: A.socketDir, shimArgs: ['--caps', 'network'] });
    await B.callOk('connect_browser', {});
    await waitFor(() => logListening(env), { what: 'the request log to start for the network session' });
    await waitFor(async () => (await networkCommands(env, tab.tabId)).includes('Network.enable'), { what: 'Network.enable on the attached tab' });
    await B.callOk('focus_tab', { tabId: tab.tabId });
    await B.pageOk('navigate', { url: tab.url });
    const list = bodyText(await B.pageOk('network_requests', {}));
    assert.match(list, /^- r\d+ GET 200 document .*\/network\.html/m, 'the network session sees the page load');

    await B.close();
    await waitFor(async () => !(await logListening(env)), { what: 'the request log to stop when the network session ended' });
    assert.equal((await networkCommands(env, tab.tabId)).at(-1), 'Network.disable', 'Network disabled again on the attached tab');
  });
});
