// The extension's icons: every file manifest.json names exists and is a PNG of
// its size, and each is what codegen/make_icons.mjs draws (the drawing and the
// committed files do not drift apart).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { png } from '../../codegen/make_icons.mjs';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');
const manifest = JSON.parse(fs.readFileSync(path.join(EXTENSION, 'manifest.json'), 'utf8'));

// Width and height from a PNG's IHDR.
const pngSize = (buf) => {
  assert.equal(buf.subarray(1, 4).toString('ascii'), 'PNG');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
};

describe('icons', () => {
  const named = [...Object.entries(manifest.icons ?? {}), ...Object.entries(manifest.action?.default_icon ?? {})];

  it('the manifest names 16, 32, 48 and 128 px icons, for the extension and its toolbar button', () => {
    assert.deepEqual(Object.keys(manifest.icons ?? {}), ['16', '32', '48', '128']);
    assert.ok(Object.keys(manifest.action?.default_icon ?? {}).includes('16'));
  });

  it('each named file is a PNG of its size, as make_icons.mjs draws it', () => {
    for (const [size, file] of named) {
      const buf = fs.readFileSync(path.join(EXTENSION, file));
      assert.deepEqual(pngSize(buf), [Number(size), Number(size)], file);
      assert.ok(buf.equals(png(Number(size))), `${file} differs from what codegen/make_icons.mjs draws: run it`);
    }
  });
});
