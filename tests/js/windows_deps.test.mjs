// install/windows_deps.sh's pure parts, by tests/windows/windows_deps_test.sh
// (bash; here so that the Linux ctest runs it, with no Windows build): the
// private deb-src configuration from deb822 and one-line apt sources (Debian,
// Ubuntu), the libuv patch (PIPE_REJECT_REMOTE_CLIENTS on every
// CreateNamedPipe call, or a loud failure), a failing step's report, and
// what each mode installs (--package: no Wine, no GoogleTest).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

it('windows_deps_test.sh passes', () => {
  const run = spawnSync('bash', [path.join(ROOT, 'tests/windows/windows_deps_test.sh')], { encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  for (const check of ['Debian deb822', 'Ubuntu deb822', 'Debian one-line', 'Ubuntu one-line',
    'the libuv patch: both calls, once', 'a call the patch cannot reach fails it, loudly',
    'a failing step says what failed', 'windows_deps.sh --package installs', 'windows_deps.sh full installs']) {
    assert.match(run.stdout, new RegExp(`^ok    ${check}`, 'm'), `${check} did not run`);
  }
});
