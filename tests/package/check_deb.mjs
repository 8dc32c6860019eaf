// Checks an unpacked tabbridge .deb (tests/package/deb_test.sh): the files,
// the control data, and every native-messaging manifest it carries — each
// must be the template in manifests/ filled in with the packaged host and the
// ID that the packaged extension's key gives (derived here, independently of
// the C++), in every browser's system-wide directory, and be a conffile.
//   node check_deb.mjs ROOT CONTROL_DIR PRINTED_MANIFEST
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const [root, control, printedPath] = process.argv.slice(2);
const repo = new URL('../../', import.meta.url).pathname;

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

// The programs, executable.
for (const program of ['usr/bin/tabbridge', 'usr/bin/tabbridge-host']) {
  accessSync(join(root, program), constants.X_OK);
}
// The extension and the templates, file for file as in the source tree.
assert.deepEqual(filesUnder(join(root, 'usr/share/tabbridge/extension')), filesUnder(join(repo, 'extension')));
assert.deepEqual(filesUnder(join(root, 'usr/share/tabbridge/manifests')), filesUnder(join(repo, 'manifests')));

// Chrome's extension ID: the first 128 bits of SHA-256 of the DER key, in a-p.
const extension = JSON.parse(readFileSync(join(root, 'usr/share/tabbridge/extension/manifest.json'), 'utf8'));
const digest = createHash('sha256').update(Buffer.from(extension.key, 'base64')).digest('hex').slice(0, 32);
const id = [...digest].map((hex) => String.fromCharCode(97 + parseInt(hex, 16))).join('');

const template = readFileSync(join(repo, 'manifests/com.tabbridge.host.json.in'), 'utf8');
const expected = JSON.parse(
  template
    .replaceAll('@HOST_NAME@', 'com.tabbridge.host')
    .replaceAll('@HOST_PATH@', '/usr/bin/tabbridge-host')
    .replaceAll('@EXTENSION_ID@', id),
);
// The name is the one the extension connects to: in the service worker the
// browser runs (the manifest's; a bundle of the worker's modules).
const extensionDir = join(root, 'usr/share/tabbridge/extension');
const workerFile = JSON.parse(readFileSync(join(extensionDir, 'manifest.json'), 'utf8')).background.service_worker;
const worker = readFileSync(join(extensionDir, workerFile), 'utf8');
assert.ok(worker.includes(`'${expected.name}'`) || worker.includes(`"${expected.name}"`),
  `the extension never names the host ${expected.name}`);

// Every browser's system-wide directory on Linux (Chrome's and Microsoft's
// docs; Brave and Vivaldi as packagers use them) has the manifest, and
// nothing else lands in /etc.
const systemDirs = [
  'etc/chromium/native-messaging-hosts',
  'etc/opt/brave/native-messaging-hosts',
  'etc/opt/chrome/native-messaging-hosts',
  'etc/opt/edge/native-messaging-hosts',
  'etc/opt/vivaldi/native-messaging-hosts',
];
const etcFiles = filesUnder(join(root, 'etc')).map((name) => `etc/${name}`);
assert.deepEqual(etcFiles, systemDirs.map((dir) => `${dir}/com.tabbridge.host.json`));
for (const file of etcFiles) {
  const path = join(root, file);
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(manifest, expected, `${file} is not the template filled in`);
  assert.ok(manifest.path.startsWith('/'), `${file}: the host path must be absolute`);
  accessSync(join(root, manifest.path), constants.X_OK);
  assert.equal(statSync(path).mode & 0o777, 0o644, `${file} must be readable by every user`);
  console.log(`ok ${file} -> ${manifest.path}, ${manifest.allowed_origins[0]}`);
}
// What the packaged shim prints is what the package ships.
assert.deepEqual(JSON.parse(readFileSync(printedPath, 'utf8')), expected);

// The manifests are conffiles: an admin's edit survives an upgrade.
const conffiles = readFileSync(join(control, 'conffiles'), 'utf8').trim().split('\n').sort();
assert.deepEqual(conffiles, etcFiles.map((file) => `/${file}`));
const fields = readFileSync(join(control, 'control'), 'utf8');
assert.match(fields, /^Package: tabbridge$/m);
assert.match(fields, /^Depends: .*libuv1/m, 'the shared libraries are dependencies (dpkg-shlibdeps)');
assert.ok(!existsSync(join(root, 'usr/lib/debug')), 'no stray files');
console.log(`ok ${relative(root, root) || '/'}: ${etcFiles.length} manifests, extension ${id}`);
