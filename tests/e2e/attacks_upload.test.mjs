// Issue 29, finding 5: upload_file handed a page any file the shim could
// read. A page on allowed site A with a file input asks the model for
// ~/.ssh/id_ed25519, /proc/self/environ (the MCP client's environment, API
// keys and all), the browser profile's Cookies database, or any file outside
// the client's roots; before the fix the page read their bytes (FileReader)
// — each test below is that exploit. Now uploads come only from the client's
// roots (roots/list) or the shim's working directory, or an --upload-root;
// browser profiles, dot-directories of $HOME, /proc, /sys, /dev and
// tabbridge's own files are refused even under a root (mcp_shim/upload_files.h).
// The owner checks (a file or a symlink in the path of another uid) need a
// second uid: tests/unit/upload_files_test.cpp.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { useHarness, waitFor } from './harness.mjs';
import { allText, startPageBrowser } from './page_helpers.mjs';

const FAKE_KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAfakefakefake\n-----END OPENSSH PRIVATE KEY-----\n';

describe('attack: upload_file hands a page any file', { timeout: 240_000 }, () => {
  const h = useHarness();
  let env;
  let s;
  let work;
  let outside;

  before(async () => {
    work = await h.tempDir('tb-e2e-upload-root-');
    outside = await h.tempDir('tb-e2e-upload-outside-');
    fs.writeFileSync(path.join(work, 'cv.txt'), 'my CV\n');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'the secret outside every root\n');
    // The client's roots: the project, and (to show the refusals hold under a root) the home directory.
    env = await startPageBrowser(h, { name: 'attack-upload', caps: 'upload', roots: [work] });
    s = env.s;
    await s.setRoots([work, s.homeDir]);
    fs.mkdirSync(path.join(s.homeDir, '.ssh'), { mode: 0o700 });
    fs.writeFileSync(path.join(s.homeDir, '.ssh', 'id_ed25519'), FAKE_KEY, { mode: 0o600 });
  });

  // What the page read of the files its input got (empty when it got none).
  const pageGot = async (tab) => {
    const n = await tab.eval(`document.getElementById('proof').files.length`);
    if (n === 0) return [];
    return waitFor(async () => {
      const stolen = await tab.eval('window.stolen');
      return stolen.length === n ? stolen : null;
    }, { what: 'the page to read its files' });
  };

  // The call is refused with `pattern`, and the page got nothing.
  const assertRefused = async (tab, paths, pattern) => {
    const result = await s.call('upload_file', { selector: '#proof', paths });
    const got = await pageGot(tab);
    assert.deepEqual(got.map((f) => `${f.name}: ${f.text.slice(0, 60)}`), [], 'the page read the file');
    assert.equal(result.isError, true, `upload_file ${paths} should be refused: ${allText(result)}`);
    assert.match(allText(result), pattern);
    return allText(result);
  };

  it('a file under a root of the client goes in (the control)', async (t) => {
    const tab = await env.open('/attack-upload-exfil.html', { t });
    await s.pageOk('upload_file', { selector: '#proof', paths: [path.join(work, 'cv.txt')] });
    assert.deepEqual(await pageGot(tab), [{ name: 'cv.txt', text: 'my CV\n' }]);
    assert.ok(s.rootsAsked >= 1, 'the shim asked the client for its roots');
  });

  it('~/.ssh/id_ed25519, though the home directory is a root', async (t) => {
    const tab = await env.open('/attack-upload-exfil.html', { t });
    const key = path.join(s.homeDir, '.ssh', 'id_ed25519');
    const text = await assertRefused(tab, ['~/.ssh/id_ed25519'], /is refused: it is hidden under your home directory/);
    assert.ok(text.includes(key), `the refusal names ${key}: ${text}`);
  });

  it('/proc/self/environ: the MCP client\'s environment', async (t) => {
    const tab = await env.open('/attack-upload-exfil.html', { t });
    await assertRefused(tab, ['/proc/self/environ'], /\/proc\/self\/environ.*\/proc/);
  });

  it('a file outside the roots: refused, with the way to allow it', async (t) => {
    const tab = await env.open('/attack-upload-exfil.html', { t });
    const secret = path.join(outside, 'secret.txt');
    const text = await assertRefused(tab, [secret], /outside the upload roots/);
    assert.ok(text.includes(secret) && text.includes(work), text);
    assert.match(text, /--upload-root/);
    // Two files, one of them outside: nothing goes in, not even the good one.
    await assertRefused(tab, [path.join(work, 'cv.txt'), secret], /outside the upload roots/);
  });

  it('the browser profile\'s Cookies, even when the client makes the profile a root', async (t) => {
    const tab = await env.open('/attack-upload-exfil.html', { t });
    const cookies = path.join(s.profileDir, 'Default', 'Cookies');
    await tab.eval(`document.cookie = 'session=bank; max-age=3600'`);
    await waitFor(() => fs.existsSync(cookies), { what: `the profile's ${cookies}` });
    await s.setRoots([work, s.homeDir, s.profileDir]);
    await assertRefused(tab, [cookies], /browser profile/);
  });
});
