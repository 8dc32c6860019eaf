// upload_file {ref|selector, paths} (--caps upload): the three ways a page
// takes a file — a plain input, a hidden input in a drop zone, an input made
// for a button's click (its file chooser intercepted) — asserted on the bytes
// the test server received; the paths' checks (the client's roots, an
// --upload-root); the policy's act denial.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { useHarness } from './harness.mjs';
import { waitFor } from './lib/wait.mjs';
import { allText, refOf, startPageBrowser } from './page_helpers.mjs';

// Every byte value: base64 on two hops and the page's decoding must keep them all.
const BINARY = Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 7 + 3) % 256));
// A PNG's signature and a little more: enough for its name to give image/png.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a picture')]);

describe('upload_file', { timeout: 180_000 }, () => {
  const h = useHarness();
  let env;
  let s;
  let dir;

  before(async () => {
    // The files come from the client's roots (roots/list): the test's directory, then the home too.
    dir = await h.tempDir('tb-e2e-upload-');
    env = await startPageBrowser(h, { name: 'upload', caps: 'upload', roots: [dir] });
    s = env.s;
    await s.setRoots([dir, s.homeDir]);
    fs.writeFileSync(path.join(dir, 'data.bin'), BINARY);
    fs.writeFileSync(path.join(dir, 'shot.png'), PNG);
    fs.writeFileSync(path.join(s.homeDir, 'notes.txt'), 'remember the milk\n');
  });

  const uploads = () => env.web.requests.filter((r) => r.method === 'POST' && r.path === '/upload');
  const uploaded = async (n) => waitFor(() => (uploads()[n - 1]?.files ? uploads()[n - 1] : null), { what: `upload ${n} at the server` });

  it('a plain file input gets the file, and the form posts its bytes', async (t) => {
    const tab = await env.open('/upload.html', { t });
    const before = uploads().length;
    const text = allText(await s.pageOk('upload_file', { selector: '#doc', paths: [path.join(dir, 'data.bin')] }));
    assert.match(text, /now holds data\.bin \(1\.0 KB\)/);
    assert.equal(await tab.eval(`document.getElementById('got').textContent`), 'doc: data.bin 1024 ');
    await s.pageOk('click', { selector: '#send' });
    const got = await uploaded(before + 1);
    assert.equal(got.files.length, 1);
    assert.equal(got.files[0].field, 'doc');
    assert.equal(got.files[0].filename, 'data.bin');
    assert.ok(got.files[0].bytes.equals(BINARY), 'the bytes the server got are the file\'s');
  });

  it('a drop zone by its ref: its hidden input takes two files, "~/" and all, with their types', async (t) => {
    const tab = await env.open('/upload.html', { t });
    const before = uploads().length;
    const [snap] = await env.snapshot();
    const zone = refOf(snap, /button "Drop files here"/);
    const text = allText(await s.pageOk('upload_file', { ref: zone, paths: [path.join(dir, 'shot.png'), '~/notes.txt'] }));
    assert.match(text, /the file input of button "Drop files here" now holds shot\.png \(28 B\), notes\.txt \(18 B\)/);
    const got = await uploaded(before + 1);
    assert.deepEqual(got.files.map((f) => [f.field, f.filename, f.type]), [['many', 'shot.png', 'image/png'], ['many', 'notes.txt', 'text/plain']]);
    assert.ok(got.files[0].bytes.equals(PNG));
    assert.equal(got.files[1].bytes.toString(), 'remember the milk\n');
    await tab.waitEval(`window.log.includes('sent 2 200')`, 'the page sent both');
  });

  it('a button that makes an input for its click: the chooser is intercepted and its input filled, twice', async (t) => {
    const tab = await env.open('/upload.html', { t });
    const before = uploads().length;
    const text = allText(await s.pageOk('upload_file', { selector: '#attach', paths: [path.join(dir, 'shot.png')] }));
    assert.match(text, /clicked .*Attach a photo.*file dialog intercepted.* now holds shot\.png \(28 B\)/);
    const got = await uploaded(before + 1);
    assert.deepEqual(got.files.map((f) => [f.field, f.filename, f.type]), [['photo', 'shot.png', 'image/png']]);
    assert.ok(got.files[0].bytes.equals(PNG));
    // The interception ended with the call: a second one opens a chooser again.
    await s.pageOk('upload_file', { selector: '#attach', paths: [path.join(dir, 'data.bin')] });
    const second = await uploaded(before + 2);
    assert.ok(second.files[0].bytes.equals(BINARY));
    assert.equal(await tab.eval(`document.getElementById('got').children.length`), 2);
  });

  it('a root the client adds later is asked for again (roots/list_changed)', async (t) => {
    const tab = await env.open('/upload.html', { t });
    const later = await h.tempDir('tb-e2e-upload-later-');
    fs.writeFileSync(path.join(later, 'late.txt'), 'late\n');
    const [, refused] = await s.pageErr('upload_file', { selector: '#doc', paths: [path.join(later, 'late.txt')] });
    assert.match(refused, /late\.txt is outside the upload roots/);
    const asked = s.rootsAsked;
    await s.setRoots([dir, s.homeDir, later]);
    const text = allText(await s.pageOk('upload_file', { selector: '#doc', paths: [path.join(later, 'late.txt')] }));
    assert.match(text, /now holds late\.txt \(5 B\)/);
    assert.equal(s.rootsAsked, asked + 1, 'asked once more, after the change');
    assert.equal(await tab.eval(`document.getElementById('doc').files[0]?.name`), 'late.txt');
  });

  it('paths are checked before anything reaches the page', async (t) => {
    const tab = await env.open('/upload.html', { t });
    const big = path.join(dir, 'big.bin');
    fs.closeSync(fs.openSync(big, 'w'));
    fs.truncateSync(big, 17 * 1024 * 1024); // sparse: no disk, and more than the limit
    const elsewhere = path.join(await h.tempDir('tb-e2e-upload-elsewhere-'), 'x.txt');
    fs.writeFileSync(elsewhere, 'x');
    const cases = [
      [{ selector: '#doc', paths: [path.join(dir, 'missing.txt')] }, /no such file: .*missing\.txt/],
      [{ selector: '#doc', paths: [elsewhere] }, /x\.txt is outside the upload roots \(.*\(a root of your MCP client\).*--upload-root DIR/],
      [{ selector: '#doc', paths: [dir] }, /is a directory/],
      [{ selector: '#doc', paths: [big] }, /more than 16 MiB/],
      [{ selector: '#doc', paths: [] }, /paths must have at least 1 item/],
      [{ selector: '#doc', paths: [path.join(dir, 'data.bin'), path.join(dir, 'shot.png')] }, /takes one file, not 2/],
      [{ selector: '#nothing', paths: [path.join(dir, 'data.bin')] }, /not a file input and clicking it opened no file chooser/],
    ];
    for (const [args, pattern] of cases) {
      const [, text] = await s.pageErr('upload_file', args);
      assert.match(text, pattern, JSON.stringify(args));
    }
    assert.equal(await tab.eval(`document.getElementById('got').children.length`), 0);
    assert.equal(await tab.eval(`document.getElementById('doc').files.length`), 0);
  });
});

describe('upload_file where the policy denies act', { timeout: 120_000 }, () => {
  const h = useHarness();
  it('is denied, and the input stays empty', async (t) => {
    const dir = await h.tempDir('tb-e2e-upload-policy-');
    const policyPath = path.join(dir, 'policy.json');
    fs.writeFileSync(policyPath, JSON.stringify({ rules: [{ sites: ['127.0.0.1'], allow: ['read', 'navigate'] }] }));
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a');
    // A client without roots: the files come from the --upload-root.
    const env = await startPageBrowser(h, {
      name: 'upload-denied', caps: 'upload', shimArgs: ['--upload-root', dir], env: { TABBRIDGE_POLICY: policyPath },
    });
    const tab = await env.open('/upload.html', { t });
    const [, text] = await env.s.pageErr('upload_file', { selector: '#doc', paths: [path.join(dir, 'a.txt')] });
    assert.match(text, /^upload_file denied on 127\.0\.0\.1:\d+/);
    assert.equal(await tab.eval(`document.getElementById('doc').files.length`), 0);
  });
});
