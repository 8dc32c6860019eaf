// Trusted presses go out only through their press-point check, keys only
// through their focus check (extension/tools/shared/input.js, press_point.js,
// stack/frame_guard.js): input without one is a programming error at once,
// not input, and a frame's site is decided only inside an acting call. Loaded with a
// stand-in `chrome` that accepts whatever the modules do when imported.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

function anything() {
  const fn = function stub() { return proxy; };
  const proxy = new Proxy(fn, {
    get: (target, key) => (key === 'then' ? () => proxy : key === Symbol.toPrimitive ? () => '' : proxy),
    apply: () => proxy,
    construct: () => proxy,
  });
  return proxy;
}

describe('press checks', () => {
  let input;
  let guard;
  before(async () => {
    globalThis.chrome = anything();
    input = await import('../../extension/tools/shared/input.js');
    guard = await import('../../extension/tools/stack/frame_guard.js');
  });

  it('a click or a wheel without its press check sends nothing', () => {
    assert.throws(() => input.click(1, 10, 10, {}), /mousePressed without its press check/);
    assert.throws(() => input.click(1, 10, 10, { doubleClick: true }), /without its press check/);
    assert.throws(() => input.mouseWheel(1, 10, 10, 0, 100, {}), /mouseWheel without its press check/);
  });

  it('keys without their focus check send nothing', async () => {
    assert.throws(() => input.insertText(1, 'secret', {}), /keys without their focus check/);
    assert.throws(() => input.typeKeys(1, 'ab', {}), /keys without their focus check/);
    await assert.rejects(input.pressChord(1, { mods: [], def: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' } }, {}),
      /keys without their focus check/);
  });

  it('a frame is decided only for an acting call', async () => {
    await assert.rejects(guard.assertUrlAllowed(7, 'http://localhost/'), /outside an acting call/);
    const release = guard.guardFrames(7, 'http://127.0.0.1/', 1);
    await guard.assertUrlAllowed(7, 'http://127.0.0.1/other'); // its own site: nothing to ask
    release();
    await assert.rejects(guard.assertUrlAllowed(7, 'http://127.0.0.1/'), /outside an acting call/);
  });
});
