// A picture of a whole Xvfb screen (startXvfb({fbdir}): Xvfb keeps its screen
// in <fbdir>/Xvfb_screen0 as an XWD image) as a PNG — the browser's own
// window parts too (the toolbar button, a popup), which CDP's
// Page.captureScreenshot does not show. Reads the 24/32-bit TrueColor ZPixmap
// Xvfb writes.

import fs from 'node:fs';
import path from 'node:path';

import { encodePng } from '../../../codegen/make_icons.mjs';
import { waitFor } from './wait.mjs';

const ZPIXMAP = 2;

const screenFile = (fbdir) => path.join(fbdir, 'Xvfb_screen0');

/**
 * The screen of `fbdir` as a PNG once it stopped changing (a popup fades in,
 * a window is still being painted): two reads in a row the same.
 */
export async function stillScreenPng(fbdir, crop = null) {
  let last = null;
  const still = await waitFor(() => {
    const now = fs.readFileSync(screenFile(fbdir));
    const same = last !== null && now.equals(last);
    last = now;
    return same ? now : null;
  }, { intervalMs: 100, what: 'the screen to stop changing' });
  return screenPng(still, crop);
}

/** An XWD image of Xvfb's screen as a PNG, cropped to {x, y, width, height} when given. */
export function screenPng(buf, crop = null) {
  const u32 = (i) => buf.readUInt32BE(i * 4);
  const [headerSize, format, width, height, byteOrder, bitsPerPixel, bytesPerLine, ncolors] =
    [u32(0), u32(2), u32(4), u32(5), u32(7), u32(11), u32(12), u32(19)];
  if (format !== ZPIXMAP || bitsPerPixel !== 32) throw new Error(`XWD: format ${format}, ${bitsPerPixel} bits a pixel: not Xvfb's 24x32 ZPixmap`);
  const masks = [u32(14), u32(15), u32(16)]; // red, green, blue
  const shifts = masks.map((m) => Math.log2(m & -m));
  const pixels = headerSize + ncolors * 12;
  const { x = 0, y = 0, width: w = width, height: h = height } = crop ?? {};
  const rgba = Buffer.alloc(w * h * 4);
  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      const at = pixels + (y + row) * bytesPerLine + (x + col) * 4;
      const v = byteOrder === 0 ? buf.readUInt32LE(at) : buf.readUInt32BE(at);
      const o = (row * w + col) * 4;
      for (let c = 0; c < 3; c++) rgba[o + c] = (v & masks[c]) >>> shifts[c];
      rgba[o + 3] = 255;
    }
  }
  return encodePng(w, h, rgba);
}
