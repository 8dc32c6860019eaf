// Draws the extension's icons (manifest "icons" and the toolbar button's
// "action.default_icon"): extension/icons/icon16/32/48/128.png. A bridge —
// a deck on two piers over an arch — in white on a blue rounded square, each
// pixel the average of 8x8 samples (edges smooth at 16 px too). Run it after a
// change to the drawing: `node codegen/make_icons.mjs`; its output is
// committed (the extension has no build step).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ICONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../extension/icons');
const SIZES = [16, 32, 48, 128];
const SAMPLES = 8; // per pixel edge
const BLUE = [31, 111, 235];
const WHITE = [255, 255, 255];

// Shapes in a unit square (y down): each says whether a point is inside.
const roundedSquare = (r) => (x, y) => {
  const dx = Math.max(r - x, 0, x - (1 - r));
  const dy = Math.max(r - y, 0, y - (1 - r));
  return dx * dx + dy * dy <= r * r;
};
const rect = (x0, y0, x1, y1) => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
const upperRing = (cx, cy, inner, outer) => (x, y) => {
  const d = Math.hypot(x - cx, y - cy);
  return y <= cy && d >= inner && d <= outer;
};

const background = roundedSquare(0.2);
const bridge = [
  rect(0.12, 0.30, 0.88, 0.41), // the deck
  rect(0.17, 0.30, 0.29, 0.80), // the piers
  rect(0.71, 0.30, 0.83, 0.80),
  upperRing(0.5, 0.80, 0.21, 0.33), // the arch between them
];

// [r, g, b, a] of pixel (px, py) of a size x size icon.
function pixel(px, py, size) {
  let inBg = 0;
  let inMark = 0;
  for (let i = 0; i < SAMPLES; i++) {
    for (let j = 0; j < SAMPLES; j++) {
      const x = (px + (i + 0.5) / SAMPLES) / size;
      const y = (py + (j + 0.5) / SAMPLES) / size;
      if (!background(x, y)) continue;
      inBg++;
      if (bridge.some((inside) => inside(x, y))) inMark++;
    }
  }
  if (inBg === 0) return [0, 0, 0, 0];
  const t = inMark / inBg; // the mark's share of the covered samples
  const mix = (c) => Math.round(BLUE[c] * (1 - t) + WHITE[c] * t);
  return [mix(0), mix(1), mix(2), Math.round((255 * inBg) / (SAMPLES * SAMPLES))];
}

const chunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(zlib.crc32(body), body.length + 4);
  return out;
};

// An 8-bit RGBA PNG of width x height pixels (rgba: 4 bytes a pixel, rows top
// down), every row unfiltered. Also the e2e screenshots' (tests/e2e/lib/xwd.mjs).
export function encodePng(width, height, rgba) {
  const raw = Buffer.alloc(height * (1 + width * 4));
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (1 + width * 4) + 1, y * width * 4, (y + 1) * width * 4);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // depth 8, RGBA, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// The icon of size x size pixels, as a PNG.
export function png(size) {
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) rgba.set(pixel(x, y, size), (y * size + x) * 4);
  }
  return encodePng(size, size, rgba);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const size of SIZES) {
    const file = path.join(ICONS, `icon${size}.png`);
    fs.writeFileSync(file, png(size));
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}
