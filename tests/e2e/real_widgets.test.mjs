// upload_file and drag on libraries nobody here wrote, from npm (pinned in
// package.json, served from node_modules): Dropzone, which keeps its file
// input hidden in <body> and uploads by XHR the moment files are chosen; and
// SortableJS in both of its modes, HTML5 drag and drop and the pointer
// fallback.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { useHarness } from './harness.mjs';
import { waitFor } from './lib/wait.mjs';
import { allText, startPageBrowser } from './page_helpers.mjs';

describe('real widgets from npm', { timeout: 150_000 }, () => {
  const h = useHarness();
  let env;
  let s;
  let files; // the client's root: upload_file reads there

  before(async () => {
    files = await h.tempDir('tb-e2e-widgets-');
    env = await startPageBrowser(h, { name: 'widgets', caps: 'upload,drag', roots: [files] });
    s = env.s;
  });

  it('Dropzone: a click on the zone opens its hidden input\'s chooser; the file reaches the server by its XHR', async (t) => {
    const tab = await env.open('/real-widgets.html', { t });
    const file = path.join(files, 'report.csv');
    fs.writeFileSync(file, 'a,b\n1,2\n');
    const text = allText(await s.pageOk('upload_file', { selector: '#dz', paths: [file] }));
    assert.match(text, /file dialog intercepted.* now holds report\.csv \(8 B\)/);
    const got = await waitFor(() => env.web.requests.find((r) => r.path === '/upload' && r.files?.length), { what: 'Dropzone\'s upload at the server' });
    assert.deepEqual(got.files.map((f) => [f.field, f.filename, f.type, f.bytes.toString()]), [['file', 'report.csv', 'text/csv', 'a,b\n1,2\n']]);
    await tab.waitEval(`window.log.includes('uploaded report.csv')`, 'Dropzone saw its upload succeed');
  });

  it('SortableJS, HTML5 mode: the first item dropped on the last', async (t) => {
    const tab = await env.open('/real-widgets.html', { t });
    await s.pageOk('drag', { from: '#html5 li:first-child', to: '#html5 li:last-child' });
    await tab.waitEval(`window.log.some((l) => l.startsWith('html5 '))`, 'Sortable ended the drag');
    assert.deepEqual(await tab.eval('window.log'), ['html5 Bravo,Charlie,Alpha']);
  });

  it('SortableJS, pointer fallback: the first item dropped on the last', async (t) => {
    const tab = await env.open('/real-widgets.html', { t });
    await s.pageOk('drag', { from: '#fallback li:first-child', to: '#fallback li:last-child' });
    await tab.waitEval(`window.log.some((l) => l.startsWith('fallback '))`, 'Sortable ended the drag');
    assert.deepEqual(await tab.eval('window.log'), ['fallback Echo,Foxtrot,Delta']);
  });
});
