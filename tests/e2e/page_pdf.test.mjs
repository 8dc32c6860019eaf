// save_pdf (under --caps download): the page printed to a PDF file in
// tabbridge's download folder; a policy that denies `download` on the site
// keeps the file from being written.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { useHarness } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';

describe('save_pdf', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'pdf', caps: 'download' });
    s = env.s;
  });

  it('writes a PDF of the page and answers its path and size', async (t) => {
    await env.open('/article.html', { t });
    const r = await s.pageOk('save_pdf', { fileName: 'the article' }, { timeoutMs: 60_000 });
    const { path: file, bytes } = r.structuredContent;
    assert.ok(path.isAbsolute(file), file);
    assert.match(path.basename(file), /^the article( \(\d+\))?\.pdf$/);
    const got = fs.readFileSync(file);
    assert.equal(got.length, bytes);
    assert.equal(got.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(got.length > 1000, `a real PDF, ${got.length} bytes`);
  });
});

describe('save_pdf where the policy denies download', { timeout: 120_000 }, () => {
  const h = useHarness();
  it('is denied, and no file is written', async (t) => {
    const dir = await h.tempDir('tb-e2e-pdf-policy-');
    const policyPath = path.join(dir, 'policy.json');
    fs.writeFileSync(policyPath, JSON.stringify({ rules: [{ sites: ['127.0.0.1'], allow: ['read', 'act', 'navigate'] }] }));
    const env = await startPageBrowser(h, { name: 'pdf-denied', caps: 'download', env: { TABBRIDGE_POLICY: policyPath } });
    await env.open('/article.html', { t });
    const folder = path.join(env.s.homeDir, 'Downloads', 'tabbridge');
    const before = fs.existsSync(folder) ? fs.readdirSync(folder) : [];
    const [, text] = await env.s.pageErr('save_pdf', {});
    assert.match(text, /^save_pdf denied on 127\.0\.0\.1:\d+/);
    assert.deepEqual(fs.existsSync(folder) ? fs.readdirSync(folder) : [], before);
  });
});
