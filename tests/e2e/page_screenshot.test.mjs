// screenshot: one image content block whose base64 decodes to a PNG or JPEG
// of the announced type, no larger than IMAGE_MAX_EDGE per side; it shows
// what the page shows (pixels checked on a PNG); element screenshots are of
// the element; a full-page screenshot of a 20000 px page is capped and says
// truncated.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { IMAGE_MAX_EDGE, allText, decodePng, el, imageInfo, imagesOf, refOf, startPageBrowser } from './page_helpers.mjs';

/** The one image block of a screenshot result: {mimeType, buf, info}. */
function theImage(result) {
  const images = imagesOf(result);
  assert.equal(images.length, 1, `exactly one image block: ${JSON.stringify(result).slice(0, 400)}`);
  const { mimeType, data } = images[0];
  assert.match(mimeType, /^image\/(png|jpeg)$/, `mimeType ${mimeType}`);
  const buf = Buffer.from(data, 'base64');
  const info = imageInfo(buf);
  assert.equal(`image/${info.format}`, mimeType, 'the bytes are of the announced type');
  assert.ok(info.width > 0 && info.height > 0, `dimensions ${info.width}x${info.height}`);
  assert.ok(info.width <= IMAGE_MAX_EDGE && info.height <= IMAGE_MAX_EDGE, `${info.width}x${info.height} exceeds the ${IMAGE_MAX_EDGE} px cap`);
  return { mimeType, buf, info };
}

/** Whether the result says it was truncated (structuredContent.truncated, else the text). */
function isTruncated(result) {
  const sc = result.structuredContent;
  if (sc && typeof sc.truncated === 'boolean') return sc.truncated;
  const text = allText(result);
  return /\btruncated\b/i.test(text) && !/truncated["']?\s*[:=]\s*false/i.test(text);
}

const near = ([r, g, b], [R, G, B], tol = 40) => Math.abs(r - R) <= tol && Math.abs(g - G) <= tol && Math.abs(b - B) <= tol;
const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];

describe('screenshot', { timeout: 120_000 }, () => {
  const h = useHarness();
  let env;
  let s;

  before(async () => {
    env = await startPageBrowser(h, { name: 'screenshot' });
    s = env.s;
  });

  it('answers one image block (png or jpeg) that decodes to an image within the size cap', async (t) => {
    await env.open('/shapes.html', { t });
    const { info } = theImage(await s.pageOk('screenshot', {}));
    t.diagnostic(`default: ${info.format} ${info.width}x${info.height}`);
  });

  it('format png answers image/png', async (t) => {
    await env.open('/shapes.html', { t });
    assert.equal(theImage(await s.pageOk('screenshot', { format: 'png' })).mimeType, 'image/png');
  });

  it('format jpeg answers image/jpeg', async (t) => {
    await env.open('/shapes.html', { t });
    assert.equal(theImage(await s.pageOk('screenshot', { format: 'jpeg' })).mimeType, 'image/jpeg');
  });

  it('jpeg quality 10 is smaller than quality 95', async (t) => {
    await env.open('/tall.html', { t });
    const low = theImage(await s.pageOk('screenshot', { format: 'jpeg', quality: 10 })).buf.length;
    const high = theImage(await s.pageOk('screenshot', { format: 'jpeg', quality: 95 })).buf.length;
    assert.ok(low < high, `quality 10: ${low} bytes, quality 95: ${high} bytes`);
  });

  it('the viewport screenshot shows the page: red box, blue box, white background where they are', async (t) => {
    const tab = await env.open('/shapes.html', { t });
    const [vw, vh] = await tab.eval('[innerWidth, innerHeight]');
    const png = decodePng(theImage(await s.pageOk('screenshot', { format: 'png' })).buf);
    const sx = png.width / vw;
    const sy = png.height / vh;
    assert.ok(Math.abs(sx - sy) < 0.05, `aspect kept: ${png.width}x${png.height} for a ${vw}x${vh} viewport`);
    const at = (x, y) => png.pixel(Math.floor(x * sx), Math.floor(y * sy));
    assert.ok(near(at(140, 110), RED), `red box centre is ${at(140, 110)}`);
    assert.ok(near(at(360, 120), BLUE), `blue box centre is ${at(360, 120)}`);
    assert.ok(near(at(20, 20), WHITE), `background is ${at(20, 20)}`);
  });

  it('an element screenshot (ref) is smaller than the viewport one and shows only the element', async (t) => {
    await env.open('/shapes.html', { t });
    const viewport = theImage(await s.pageOk('screenshot', { format: 'png' })).info;
    const [snap] = await env.snapshot();
    const { buf, info } = theImage(await s.pageOk('screenshot', { format: 'png', ref: refOf(snap, el('button', 'Red box')) }));
    assert.ok(info.width * info.height < viewport.width * viewport.height, `element ${info.width}x${info.height} vs viewport ${viewport.width}x${viewport.height}`);
    assert.ok(Math.abs(info.width / info.height - 2) < 0.1, `the 200x100 box keeps its 2:1 shape: ${info.width}x${info.height}`);
    const png = decodePng(buf);
    for (const [fx, fy] of [[0.5, 0.5], [0.1, 0.1], [0.9, 0.9], [0.1, 0.9], [0.9, 0.1]]) {
      const p = png.pixel(Math.floor(fx * (png.width - 1)), Math.floor(fy * (png.height - 1)));
      assert.ok(near(p, RED), `pixel at ${fx},${fy} of the element screenshot is ${p}, not red`);
    }
  });

  it('an element screenshot by selector shows that element', async (t) => {
    await env.open('/shapes.html', { t });
    const png = decodePng(theImage(await s.pageOk('screenshot', { format: 'png', selector: '#blue' })).buf);
    assert.ok(Math.abs(png.width / png.height - 1) < 0.1, `the 120x120 box is square: ${png.width}x${png.height}`);
    const p = png.pixel(Math.floor(png.width / 2), Math.floor(png.height / 2));
    assert.ok(near(p, BLUE), `centre is ${p}, not blue`);
  });

  it('fullPage of a 20000 px page is capped and says truncated', async (t) => {
    await env.open('/tall.html', { t });
    const r = await s.pageOk('screenshot', { fullPage: true }, { timeoutMs: 60_000 });
    const { info } = theImage(r);
    t.diagnostic(`fullPage: ${info.width}x${info.height}`);
    assert.equal(isTruncated(r), true, `truncated should be reported: ${allText(r)}`);
  });

  it('fullPage of a page that fits is not truncated', async (t) => {
    await env.open('/shapes.html', { t });
    const r = await s.pageOk('screenshot', { fullPage: true });
    theImage(r);
    assert.equal(isTruncated(r), false, `nothing to truncate: ${allText(r)}`);
  });
});
