// connect_browser {launch: true} in both ways a browser can be given our
// extension: --load-extension (Chromium) and CDP Extensions.loadUnpacked over
// the DevTools pipe (branded Chrome 137+, forced here with
// TABBRIDGE_LAUNCH_METHOD=pipe). Either way the launched browser outlives the
// shim, so a restarted MCP client attaches to it again.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import {
  HOST_PATH,
  TOOLS_NO_TABS,
  assertToolSet,
  cdpEvaluate,
  devToolsPages,
  devToolsPort,
  isAlive,
  killAndReap,
  targetWsUrl,
  useHarness,
  waitFor,
  workerEval,
} from './harness.mjs';
import { bodyText } from './page_helpers.mjs';

/** `expression` evaluated in the page at `url` over DevTools. */
async function pageEval(port, url, expression) {
  const page = (await devToolsPages(port)).find((p) => p.url === url);
  assert.ok(page, `a page at ${url}`);
  return cdpEvaluate(targetWsUrl(port, page), expression);
}

/** Whether something accepts connections on the Unix socket at `file`. */
function socketAnswers(file) {
  return new Promise((resolve) => {
    const c = net.connect(file);
    c.once('connect', () => { c.destroy(); resolve(true); });
    c.once('error', () => resolve(false));
  });
}

for (const method of ['flag', 'pipe']) {
  describe(`launch over ${method}`, { timeout: 90_000 }, () => {
    const h = useHarness();

    it('launches, registers the host in the profile, reports progress, and survives the shim', async () => {
      const first = await h.startSession({ name: `${method}-first`, env: { TABBRIDGE_LAUNCH_METHOD: method } });
      const progress = [];
      const result = await first.client.callTool({ name: 'connect_browser', arguments: { launch: true } }, undefined, {
        timeout: 45_000,
        onprogress: (p) => progress.push(p),
      });
      assert.notEqual(result.isError, true, JSON.stringify(result));
      const connected = result.structuredContent;
      assert.equal(connected.connected, true);
      assert.equal(connected.launched, true);
      assert.equal(connected.browser.name, 'Chromium');
      assert.ok(progress.length >= 1, 'a launch with a progress token reports progress');
      assertToolSet(await first.toolNames(), TOOLS_NO_TABS);

      const manifest = JSON.parse(
        fs.readFileSync(path.join(first.profileDir, 'NativeMessagingHosts', 'com.tabbridge.host.json'), 'utf8'),
      );
      assert.equal(fs.realpathSync(manifest.path), fs.realpathSync(HOST_PATH));
      assert.deepEqual(manifest.allowed_origins, ['chrome-extension://adpkeaffmapkegingficmdcbffgoapmk/']);

      await first.close();
      await waitFor(() => first.exited, { what: 'the first shim to exit' });
      assert.ok(isAlive(connected.browser.pid), 'the launched browser outlives the shim that launched it');

      const second = await h.startSession({
        name: `${method}-second`,
        socketDir: first.socketDir,
        profileDir: first.profileDir,
        env: { TABBRIDGE_LAUNCH_METHOD: method },
      });
      const again = await second.callOk('connect_browser', { launch: true });
      assert.equal(again.launched, false, 'a running browser is reused, not launched twice');
      assert.equal(again.browser.pid, connected.browser.pid);
      second.browserPids.add(connected.browser.pid); // cleanup kills it
    });
  });
}

describe('launch failures', { timeout: 30_000 }, () => {
  const h = useHarness();

  it('a browser path that is not an executable is a tool error that says what to set', async () => {
    const s = await h.startSession({ name: 'bad-browser', env: { TABBRIDGE_BROWSER: '/nonexistent/chrome' } });
    const result = await s.callErr('connect_browser', { launch: true });
    assert.equal(result.structuredContent.connected, false);
    assert.match(result.structuredContent.error, /TABBRIDGE_BROWSER/);
    assert.deepEqual(await s.toolNames(), ['connect_browser']);
    assert.equal(s.listChanged, 0);
  });
});

describe('launch deadline', { timeout: 90_000 }, () => {
  const h = useHarness();

  it('over the pipe, a browser that never answers: connect_browser answers by its deadline and stops it', async () => {
    const dir = await h.tempDir('tb-e2e-fakebrowser-');
    const fake = path.join(dir, 'fake-browser');
    // Keeps the DevTools pipe (fds 3 and 4) open and never says a word on it.
    fs.writeFileSync(fake, '#!/bin/sh\nexec sleep 300\n', { mode: 0o755 });
    const s = await h.startSession({ name: 'mute-browser', env: { TABBRIDGE_BROWSER: fake, TABBRIDGE_LAUNCH_METHOD: 'pipe' } });
    const result = await s.callErr('connect_browser', { launch: true });
    assert.equal(result.structuredContent.connected, false);
    const error = result.structuredContent.error;
    assert.match(error, /did not answer on its DevTools pipe/, error);
    const pid = Number(/pid (\d+)/.exec(error)?.[1]);
    assert.ok(pid > 0, `names the browser's pid: ${error}`);
    await waitFor(() => !isAlive(pid), { what: `the mute browser (pid ${pid}) to be stopped` });
    assert.deepEqual(await s.toolNames(), ['connect_browser']);
  });
});

describe('launch after a crash', { timeout: 120_000 }, () => {
  const h = useHarness();

  // Chromium takes over a lock of its own host name and a free pid by itself;
  // one naming another host (a container restarted under a new name) it
  // refuses — "the profile appears to be in use by another computer".
  it('a profile left locked by a browser killed under another host name launches again', async () => {
    const first = await h.startSession({ name: 'crashed-profile' });
    const launched = await first.callOk('connect_browser', { launch: true });
    const lock = path.join(first.profileDir, 'SingletonLock');
    assert.ok(fs.lstatSync(lock).isSymbolicLink(), 'a running browser locks its profile');
    // The shim that launched it would start it again itself (browser_restart.test.mjs):
    // it ends first, and the browser dies on its own.
    await first.close();
    await waitFor(() => first.exited, { what: 'the launching shim to exit' });
    await killAndReap({ pids: [launched.browser.pid] });
    // Dead to the last process: nothing listens on its singleton socket any more
    // (a helper still dying holds it open for a moment, and the lock is then kept).
    await waitFor(async () => !(await socketAnswers(path.join(first.profileDir, 'SingletonSocket'))),
      { what: 'the killed browser\'s singleton socket to stop answering' });
    assert.ok(fs.lstatSync(lock, { throwIfNoEntry: false })?.isSymbolicLink(), 'the killed browser left its lock');
    fs.unlinkSync(lock);
    fs.symlinkSync(`old-container-name-${launched.browser.pid}`, lock);
    const s = await h.startSession({ name: 'crashed-profile-again', socketDir: first.socketDir, profileDir: first.profileDir });
    const again = await s.callOk('connect_browser', { launch: true }, { timeoutMs: 60_000 });
    assert.equal(again.launched, true);
    assert.notEqual(again.browser.pid, launched.browser.pid);
    s.browserPids.add(again.browser.pid); // cleanup kills it
  });
});

describe('the launch tab', { timeout: 90_000 }, () => {
  const h = useHarness();

  // Its renderer runs already: a new tab would wait for one of its own.
  it('of a headless browser the shim launched takes the first page open_tab opens, and no other tab is left', async () => {
    const web = await h.fixtureServer();
    const s = await h.startSession({ name: 'launch-tab', extraBrowserArgs: ['--remote-debugging-port=0'] });
    const connected = await s.callOk('connect_browser', { launch: true });
    s.browserPids.add(connected.browser.pid);
    const port = await devToolsPort({ profileDir: s.profileDir, browserPid: connected.browser.pid });
    const pages = await devToolsPages(port);
    assert.deepEqual(pages.map((p) => p.url), ['about:blank'], 'the launch tab');
    const url = web.url('/a.html');
    const opened = await s.callOk('open_tab', { url });
    assert.equal(opened.tab.url, url);
    const now = await devToolsPages(port);
    assert.deepEqual(now.map((p) => [p.id, p.url]), [[pages[0].id, url]], 'the page is in the launch tab, the only tab');
    const second = await s.callOk('open_tab', { url: web.url('/b.html') });
    assert.notEqual(second.tab.id, opened.tab.id, 'the next page gets a tab of its own');
    assert.ok(isAlive(connected.browser.pid), 'the browser goes on with the agent tabs');
  });

  // Issue 43: a browser tabbridge launched shows no debugger bar
  // (--silent-debugger-extension-api), and its extension is told so: the first
  // click after open_tab + snapshot does not wait for a viewport change that
  // cannot come. The worker keeps what each first pointer action's wait did.
  it('takes its first click without waiting for a debugger bar, and the click lands', async () => {
    const web = await h.fixtureServer();
    const s = await h.startSession({ name: 'launch-click', extraBrowserArgs: ['--remote-debugging-port=0'] });
    const connected = await s.callOk('connect_browser', { launch: true });
    s.browserPids.add(connected.browser.pid);
    const port = await devToolsPort({ profileDir: s.profileDir, browserPid: connected.browser.pid });
    const opened = await s.callOk('open_tab', { url: web.url('/clicks.html') });
    await s.callOk('focus_tab', { tabId: opened.tab.id });
    await s.pageOk('snapshot', {});
    const height = await pageEval(port, web.url('/clicks.html'), 'innerHeight');
    await s.pageOk('click', { selector: '#target' });
    assert.equal(await pageEval(port, web.url('/clicks.html'), 'window.clicks'), 1, 'the first click landed');
    assert.equal(await pageEval(port, web.url('/clicks.html'), 'innerHeight'), height, 'no bar took the viewport');
    const waits = JSON.parse(await workerEval(port, 'JSON.stringify(globalThis.__tabbridgeBarWaits)'));
    assert.deepEqual(waits, ['no-bar'], 'the first pointer action knew no bar comes (not a wait that ran out)');
  });
});

// Issue 43: a browser connect_browser {launch: true} started does not linger
// once no session uses it (TABBRIDGE_LAUNCHED_IDLE_MS, shortened here; 10
// minutes by default), and the next launch starts a new one.
describe('an idle launched browser', { timeout: 120_000 }, () => {
  const h = useHarness();

  it('closes once no session has been connected for its idle time, and the next launch starts a new one', async () => {
    const env = { TABBRIDGE_LAUNCHED_IDLE_MS: '2000' };
    const first = await h.startSession({ name: 'idle-first', env });
    const connected = await first.callOk('connect_browser', { launch: true });
    first.browserPids.add(connected.browser.pid);
    // A second session keeps it open past the first one's exit.
    const other = await h.startSession({ name: 'idle-other', socketDir: first.socketDir, profileDir: first.profileDir, env });
    assert.equal((await other.callOk('connect_browser', { launch: true })).launched, false);
    await first.close();
    await waitFor(() => first.exited, { what: 'the first shim to exit' });
    const tab = await other.callOk('open_tab', { url: (await h.fixtureServer()).url('/a.html') });
    assert.ok(tab.tab.id, 'the browser still answers the session that holds it');
    assert.ok(isAlive(connected.browser.pid));
    await other.close();
    await waitFor(() => !isAlive(connected.browser.pid), { timeoutMs: 30_000, what: 'the idle browser to close' });

    const next = await h.startSession({ name: 'idle-next', socketDir: first.socketDir, profileDir: first.profileDir, env });
    const again = await next.callOk('connect_browser', { launch: true });
    next.browserPids.add(again.browser.pid);
    assert.equal(again.launched, true, 'a new browser is launched');
    assert.notEqual(again.browser.pid, connected.browser.pid);
  });
});

// A first page slower than open_tab's wait: the launch tab it went into
// still holds the browser's blank page, and is listed where it is going, as
// a new tab would be.
describe('a slow first page in the launch tab', { timeout: 90_000 }, () => {
  const h = useHarness();

  it('is listed at its URL while it loads, and focus_tab takes it', async () => {
    const web = await h.fixtureServer();
    // open_tab waits the host's deadline less 2 s for the page: 2 s here.
    const s = await h.startSession({ name: 'launch-tab-slow', env: { TABBRIDGE_EXTENSION_DEADLINE_MS: '4000' } });
    const connected = await s.callOk('connect_browser', { launch: true });
    s.browserPids.add(connected.browser.pid);
    const url = web.url('/hold?key=first-page');
    const opened = await s.callOk('open_tab', { url });
    assert.equal(opened.loading, true, 'the page had not answered');
    assert.equal(opened.tab.url, url);
    assert.deepEqual((await s.callOk('list_tabs', {})).tabs.map((t) => [t.id, t.url]), [[opened.tab.id, url]]);
    await s.callOk('focus_tab', { tabId: opened.tab.id });
    web.release('first-page');
    const read = () => s.call('read_page', { mode: 'text' }).then(bodyText, () => '');
    await waitFor(async () => /released first-page/.test(await read()), { what: 'the page to come' });
    assert.deepEqual((await s.callOk('list_tabs', {})).tabs.map((t) => [t.id, t.url]), [[opened.tab.id, url]]);
  });
});

describe('the last tab', { timeout: 90_000 }, () => {
  const h = useHarness();

  // No DevTools port or pipe here: either would keep the browser alive by itself.
  it('closed in a headless browser the shim launched leaves the browser and its host running', async () => {
    const web = await h.fixtureServer();
    const s = await h.startSession({ name: 'last-tab' });
    const connected = await s.callOk('connect_browser', { launch: true });
    s.browserPids.add(connected.browser.pid);
    const opened = await s.callOk('open_tab', { url: web.url('/a.html') });
    await s.callOk('close_tab', { tabId: opened.tab.id });
    assert.deepEqual((await s.callOk('list_tabs', {})).tabs, [], 'no tab is left');
    assert.ok(isAlive(connected.browser.pid), 'the browser outlives its last tab');
    const again = await s.callOk('open_tab', { url: web.url('/b.html') });
    assert.equal(again.tab.url, web.url('/b.html'), 'the host still opens tabs');
  });
});

// Where users run their agent (issue 19): as root in a container with no
// display, a launched browser gets --no-sandbox and --headless=new by itself
// and the answer says so; a browser that dies at start is reported at once.
describe('launch where the machine decides', { timeout: 90_000 }, () => {
  const h = useHarness();
  const root = process.getuid?.() === 0;

  const cmdline = (pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

  it('as root with no TABBRIDGE_BROWSER_ARGS and no display: connects headless without the sandbox, and says so', { skip: !root && 'needs root' }, async () => {
    const s = await h.startSession({
      name: 'root-no-display',
      env: { TABBRIDGE_BROWSER_ARGS: '', DISPLAY: undefined, WAYLAND_DISPLAY: undefined },
    });
    const connected = await s.callOk('connect_browser', { launch: true });
    assert.equal(connected.launched, true);
    const notes = (connected.notes ?? []).join('\n');
    assert.match(notes, /security: tabbridge starts the browser with --no-sandbox because tabbridge runs as root/, notes);
    assert.match(notes, /headless: there is no display here/, notes);
    const args = cmdline(connected.browser.pid);
    assert.ok(args.includes('--no-sandbox'), `browser command line: ${args.join(' ')}`);
    assert.ok(args.includes('--headless=new'), `browser command line: ${args.join(' ')}`);
    assertToolSet(await s.toolNames(), TOOLS_NO_TABS);
    // Said once: another session connecting to that browser is told nothing.
    const other = await h.startSession({ name: 'root-no-display-2', socketDir: s.socketDir, profileDir: s.profileDir,
      env: { TABBRIDGE_BROWSER_ARGS: '', DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
    const again = await other.callOk('connect_browser', { launch: true });
    assert.equal(again.launched, false);
    assert.equal(again.notes, undefined);
  });

  it("the user's own switches decide: their --headless and --no-sandbox are not doubled and nothing is said", async () => {
    const s = await h.startSession({ name: 'own-switches', env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
    const connected = await s.callOk('connect_browser', { launch: true });
    assert.equal(connected.notes, undefined, JSON.stringify(connected.notes));
    const args = cmdline(connected.browser.pid);
    assert.equal(args.filter((a) => a === '--no-sandbox').length, 1);
    assert.equal(args.filter((a) => a.startsWith('--headless')).length, 1);
  });

  for (const method of ['flag', 'pipe']) {
    it(`over ${method}, a browser that exits at once is reported at once, in its own words`, async () => {
      const dir = await h.tempDir('tb-e2e-dying-');
      const stub = path.join(dir, 'dying-browser');
      // What Chromium says and does as root without --no-sandbox.
      fs.writeFileSync(stub, '#!/bin/sh\n' +
        'echo "[99:99:1125/101010.000001:ERROR:zygote_host_impl_linux.cc(101)] Running as root without --no-sandbox is not supported. See https://crbug.com/638180." >&2\n' +
        'exit 1\n', { mode: 0o755 });
      const s = await h.startSession({ name: `dying-${method}`, env: { TABBRIDGE_BROWSER: stub, TABBRIDGE_LAUNCH_METHOD: method } });
      // The launch wait is 30 s; an answer within this call's 10 s is not that wait.
      const result = await s.callErr('connect_browser', { launch: true }, { timeoutMs: 10_000 });
      const { error, instructions } = result.structuredContent;
      if (method === 'flag') assert.match(error, /the launched browser \(pid \d+\) exited with status 1 before its tabbridge host started/, error);
      else assert.match(error, /the launched browser \(pid \d+\) exited with status 1, closing its DevTools pipe before loading the extension/, error);
      assert.match(error, /Running as root without --no-sandbox is not supported/, error);
      assert.match(instructions, /--no-sandbox in TABBRIDGE_BROWSER_ARGS/, instructions);
      assert.match(instructions, /tabbridge-browser\.log/, instructions);
      assert.deepEqual(await s.toolNames(), ['connect_browser']);
    });
  }

  it('with no browser anywhere, connect_browser names the command that installs one', async () => {
    const s = await h.startSession({ name: 'no-browser', env: { TABBRIDGE_BROWSER: '', PATH: '/nonexistent' } });
    const result = await s.callErr('connect_browser', { launch: true }, { timeoutMs: 10_000 });
    const { error, instructions } = result.structuredContent;
    assert.match(error, /no Chrome-family browser found/, error);
    if (fs.existsSync('/etc/debian_version')) {
      assert.match(instructions, /apt-get install -y chromium/, instructions);
    }
  });
});
