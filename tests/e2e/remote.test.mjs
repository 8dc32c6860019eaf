// A remote dev box (issue 19): the agent's machine reaches the browser on the
// user's machine through OpenSSH's stream-local forwarding of the host's Unix
// socket (ssh -R remote.sock:local.sock), no port opened for tabbridge.
// Real parts: Debian's sshd on 127.0.0.1 with a temporary config, host key
// and user key; the ssh commands `tabbridge remote` prints, run as printed
// (plus the test's key, port and -N): the first asks "the dev box" where its
// user's own socket directory is ($XDG_RUNTIME_DIR, set by sshd here), the
// second forwards into it; a second shim pointed at the forwarded socket
// with TABBRIDGE_HOST_SOCKET walks seed 000 on the first one's browser.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {
  SHIM_PATH,
  TOOLS_FOCUSED_CORE,
  TOOLS_NO_TABS,
  TOOLS_TABS_UNFOCUSED,
  assertCoreTools,
  assertToolSet,
  closedPort,
  expectListChangedNow,
  launchBrowser,
  stepper,
  useHarness,
  waitFor,
  waitForTabTitle,
} from './harness.mjs';

const SSHD = '/usr/sbin/sshd';
const root = process.getuid?.() === 0;
// sshd insists on its privilege-separation directory; only root can make it.
const skip = !fs.existsSync(SSHD) ? `${SSHD} is not installed (install/deps.sh --test installs openssh-server)`
  : !root && !fs.existsSync('/run/sshd') ? 'sshd needs /run/sshd, which only root can create' : false;

describe('remote dev box over ssh', { timeout: 120_000, skip }, () => {
  const h = useHarness();
  const step = stepper();
  let dir, runtimeDir, local, remote, web, sshd, ssh, remoteSocket, a, b;

  const children = [];
  const run = (cmd, args, what) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.log = '';
    child.stderr.on('data', (d) => { child.log += d; });
    child.exitCode_ = null;
    child.on('exit', (code, signal) => { child.exitCode_ = code ?? signal; });
    child.what = what;
    children.push(child);
    return child;
  };

  before(async () => {
    dir = await h.tempDir('tb-e2e-ssh-');
    if (root) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'user_key')]);
    fs.copyFileSync(path.join(dir, 'user_key.pub'), path.join(dir, 'authorized_keys'));
    const port = await closedPort();
    // "The dev box"'s runtime directory for its user: where the forwarded socket goes.
    runtimeDir = path.join(dir, 'remote-run');
    fs.writeFileSync(path.join(dir, 'sshd_config'), [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_key')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'AllowStreamLocalForwarding yes',
      `SetEnv XDG_RUNTIME_DIR=${runtimeDir}`,
      'LogLevel VERBOSE',
      '',
    ].join('\n'));
    sshd = run(SSHD, ['-D', '-e', '-f', path.join(dir, 'sshd_config')], 'sshd');
    await waitFor(() => sshd.log.includes('Server listening') || sshd.exitCode_ !== null, { what: 'sshd to listen' });
    assert.equal(sshd.exitCode_, null, `sshd exited: ${sshd.log}`);
    sshd.port = port;

    // The user's machine: a browser with the extension, its host in socket dir A.
    web = await h.fixtureServer();
    local = await h.startSession({ name: 'laptop' });
    await launchBrowser(local);
  });

  after(() => {
    for (const c of children) if (c.exitCode_ === null) c.kill('SIGTERM');
  });

  it('`tabbridge remote` prints the ssh command that forwards the live host\'s socket into the remote user\'s own directory', step(async () => {
    const out = execFileSync(SHIM_PATH, ['remote', `${process.env.USER || 'root'}@127.0.0.1`], {
      env: { ...process.env, TABBRIDGE_SOCKET_DIR: local.socketDir },
      encoding: 'utf8',
    });
    assert.ok(!out.includes('-R /tmp/') && !out.includes('TABBRIDGE_HOST_SOCKET=/tmp/'), `no fixed name in /tmp:\n${out}`);
    const sshArgs = [
      '-p', String(sshd.port), '-i', path.join(dir, 'user_key'),
      '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=no', '-o', `UserKnownHostsFile=${path.join(dir, 'known_hosts')}`,
    ];
    // The first step as printed: the remote makes its user's directory and says where the socket goes.
    const probeLine = out.split('\n').find((l) => l.startsWith('sock=$(ssh '));
    assert.ok(probeLine, `a line that asks the remote for the socket's place in:\n${out}`);
    const [, destination, probe] = probeLine.match(/^sock=\$\(ssh (\S+) '([^']*)'\) &&$/) ?? [];
    assert.ok(probe, probeLine);
    remoteSocket = execFileSync('ssh', [...sshArgs, destination, probe], { encoding: 'utf8' });
    assert.equal(remoteSocket, path.join(runtimeDir, 'tabbridge-remote.sock'), 'in the remote\'s $XDG_RUNTIME_DIR');
    assert.equal(fs.statSync(runtimeDir).mode & 0o777, 0o700);
    assert.match(out, /TABBRIDGE_HOST_SOCKET="\$\{XDG_RUNTIME_DIR:-\$HOME\/\.tabbridge\}\/tabbridge-remote\.sock"/);
    // The second, with what the first printed, the test's key and port, and no remote command.
    const line = out.split('\n').find((l) => l.startsWith('ssh '));
    assert.ok(line, `an ssh line in:\n${out}`);
    assert.ok(line.includes(`-R "$sock":${path.join(local.socketDir, 'browser-0.sock')}`), line);
    const printed = line.replace('"$sock"', remoteSocket).split(' ').slice(1);
    ssh = run('ssh', ['-N', ...sshArgs, ...printed], 'ssh');
    await waitFor(() => fs.existsSync(remoteSocket) || ssh.exitCode_ !== null, { what: `the forwarded socket ${remoteSocket}` });
    assert.equal(ssh.exitCode_, null, `ssh exited: ${ssh.log}\nsshd: ${sshd.log}`);
  }));

  it('the shim on the far side connects through the forwarded socket (and finds nothing in its own socket dir)', step(async () => {
    remote = await h.startSession({ name: 'devbox', env: { TABBRIDGE_HOST_SOCKET: remoteSocket } });
    assert.notEqual(remote.socketDir, local.socketDir);
    const r = await remote.callOk('connect_browser', {});
    assert.equal(r.connected, true);
    assert.equal(r.launched, false);
    assert.equal(r.browser.pid, local.lastConnect.browser.pid, 'the browser on the user\'s machine');
    await expectListChangedNow(remote, 1, 'connect_browser');
    assertToolSet(await remote.toolNames(), TOOLS_NO_TABS);
  }));

  it('opens, reads, focuses and closes tabs there: the seed-000 walk', step(async () => {
    const ra = await remote.callOk('open_tab', { url: web.url('/a.html') });
    a = ra.tab.id;
    assert.equal(ra.focused, true);
    await expectListChangedNow(remote, 2, 'open_tab focused');
    assertCoreTools(await remote.toolNames(), TOOLS_FOCUSED_CORE);
    await waitForTabTitle(remote, a, 'Page A');
    const read = await remote.pageOk('read_page', { mode: 'info' });
    assert.match(JSON.stringify(read), /Page A/);
    const rb = await remote.callOk('open_tab', { url: web.url('/b.html'), focus: false });
    b = rb.tab.id;
    await expectListChangedNow(remote, 2, 'open_tab unfocused');
    assert.equal((await remote.callOk('focus_tab', { tabId: b })).tab.id, b);
    assert.equal((await remote.callOk('close_tab', {})).tabId, b);
    await expectListChangedNow(remote, 3, 'close_tab of the focused tab');
    assertToolSet(await remote.toolNames(), TOOLS_TABS_UNFOCUSED);
    await remote.callOk('focus_tab', { tabId: a });
    assert.equal((await remote.callOk('close_tab', { tabId: a })).tabId, a);
    await expectListChangedNow(remote, 5, 'close_tab of the last tab');
    assertToolSet(await remote.toolNames(), TOOLS_NO_TABS);
  }));

  it('when the forwarding ends, the far side answers that nothing is there and what to run', step(async () => {
    ssh.kill('SIGTERM');
    await waitFor(() => ssh.exitCode_ !== null, { what: 'ssh to exit' });
    // The flag form of TABBRIDGE_HOST_SOCKET.
    const fresh = await h.startSession({ name: 'devbox-after', shimArgs: ['--host-socket', remoteSocket] });
    const r = await fresh.callErr('connect_browser', {});
    assert.match(r.structuredContent.error, /No browser answers at .*TABBRIDGE_HOST_SOCKET/, r.structuredContent.error);
    assert.match(r.structuredContent.instructions, /tabbridge remote/);
    const launched = await fresh.callErr('connect_browser', { launch: true });
    assert.match(launched.structuredContent.error, /TABBRIDGE_HOST_SOCKET is set/);
  }));
});

describe('TABBRIDGE_HOST_SOCKET of another user', { timeout: 30_000, skip: !root && 'needs root (to give the socket away)' }, () => {
  const h = useHarness();

  it('is refused before a byte is sent', async () => {
    const dir = await h.tempDir('tb-e2e-foreign-');
    const sock = path.join(dir, 'planted.sock');
    const net = await import('node:net');
    let bytes = 0;
    const server = net.createServer((c) => c.on('data', (d) => { bytes += d.length; }));
    await new Promise((resolve) => server.listen(sock, resolve));
    try {
      fs.chownSync(sock, 65534, 65534); // nobody's file now
      const s = await h.startSession({ name: 'foreign', env: { TABBRIDGE_HOST_SOCKET: sock } });
      const r = await s.callErr('connect_browser', {});
      assert.match(r.structuredContent.error, /belongs to uid 65534, not to you/, r.structuredContent.error);
      assert.equal(bytes, 0, 'nothing was sent to it');
    } finally {
      server.close();
    }
  });
});
