// `tabbridge doctor` checks each link of the real chain and names the broken
// one with a fix.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { SHIM_PATH, launchBrowser, useHarness } from './harness.mjs';

const run = promisify(execFile);

async function tabbridge(args, env) {
  try {
    const { stdout } = await run(SHIM_PATH, args, { env: { ...process.env, ...env } });
    return { code: 0, stdout };
  } catch (err) {
    return { code: err.code, stdout: err.stdout ?? '' };
  }
}

describe('tabbridge doctor', { timeout: 90_000 }, () => {
  const h = useHarness();
  let env;
  let home;

  before(async () => {
    const s = await h.startSession({ name: 'doctor', policy: null }); // no policy file, as a new user has
    await launchBrowser(s);
    home = await h.tempDir('tb-e2e-home-');
    fs.mkdirSync(path.join(home, '.config', 'chromium'), { recursive: true }); // a browser "found" on this machine
    env = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      TABBRIDGE_SOCKET_DIR: s.socketDir,
      TABBRIDGE_PROFILE_DIR: s.profileDir,
    };
  });

  it('reports a missing manifest as the broken link, with the fix', async () => {
    const { code, stdout } = await tabbridge(['doctor'], env);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /FAIL {2}Chromium: .*com\.tabbridge\.host\.json is missing/);
    assert.match(stdout, /fix: run `tabbridge register`/);
  });

  it('passes every check once registered, and sees the live host', async () => {
    const registered = await tabbridge(['register'], env);
    assert.equal(registered.code, 0, registered.stdout);
    assert.match(registered.stdout, /registered .*\.config\/chromium\/NativeMessagingHosts\/com\.tabbridge\.host\.json/);
    const { code, stdout } = await tabbridge(['doctor'], env);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /ok {4}extension: .* \(ID adpkeaffmapkegingficmdcbffgoapmk\)/);
    assert.match(stdout, /ok {4}live host browser-0: Chromium \d+/);
    // connect_browser {launch: true} started it with --enable-features=WebMCP.
    assert.match(stdout, /ok {4}live host browser-0: the browser has native WebMCP/);
    assert.match(stdout, /all links work/);
  });

  it('says which browser a launch would start, and what this machine makes it do', async () => {
    const bare = { ...env, TABBRIDGE_BROWSER_ARGS: '', DISPLAY: '', WAYLAND_DISPLAY: '' };
    const { stdout } = await tabbridge(['doctor'], bare);
    assert.match(stdout, /ok {4}launch: \/\S+/);
    assert.match(stdout, /note {2}launch: headless: there is no display here/);
    if (process.getuid?.() === 0) assert.match(stdout, /note {2}launch: security: tabbridge starts the browser with --no-sandbox because tabbridge runs as root/);
    const own = await tabbridge(['doctor'], { ...bare, TABBRIDGE_BROWSER_ARGS: '--headless=new --no-sandbox' });
    assert.doesNotMatch(own.stdout, /note {2}launch:/, 'the user\'s own switches: nothing to say');
  });

  it('names a malformed policy file, and says which policy the live host enforces', async () => {
    const broken = path.join(home, 'policy.json');
    fs.writeFileSync(broken, '{"rules": [{"sites": ["*"], "alow": ["read"]}]}');
    const { code, stdout } = await tabbridge(['doctor'], { ...env, TABBRIDGE_POLICY: broken });
    assert.equal(code, 1, stdout);
    assert.match(stdout, /FAIL {2}policy: .*policy\.json is malformed: rule 1: .*alow.* — the host denies everything/);
    // The host found its file in the browser's environment: the session's own (none).
    assert.match(stdout, /ok {4}live host browser-0: no policy file at .*policy\.json \(the person is asked for each site\)/);
    assert.match(stdout, /note {2}policy does not cover: frames of other sites .*any process of your own user/);
  });

  it('names a manifest whose host is not executable', async () => {
    const file = path.join(home, '.config', 'chromium', 'NativeMessagingHosts', 'com.tabbridge.host.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...manifest, path: '/nonexistent/tabbridge-host' }));
    const { code, stdout } = await tabbridge(['doctor'], env);
    assert.equal(code, 1);
    assert.match(stdout, /points at \/nonexistent\/tabbridge-host, which is not an executable/);
  });

  it('names a socket directory open to others', async () => {
    fs.chmodSync(env.TABBRIDGE_SOCKET_DIR, 0o755);
    try {
      const { code, stdout } = await tabbridge(['doctor'], env);
      assert.equal(code, 1);
      assert.match(stdout, /has mode 0755; it must be 0700/);
    } finally {
      fs.chmodSync(env.TABBRIDGE_SOCKET_DIR, 0o700);
    }
  });

  it('unregister removes what register wrote', async () => {
    const { code, stdout } = await tabbridge(['unregister'], env);
    assert.equal(code, 0);
    assert.match(stdout, /removed .*chromium\/NativeMessagingHosts\/com\.tabbridge\.host\.json/);
    assert.ok(!fs.existsSync(path.join(home, '.config', 'chromium', 'NativeMessagingHosts', 'com.tabbridge.host.json')));
  });
});
