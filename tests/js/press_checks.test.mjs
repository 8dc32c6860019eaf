// Trusted presses go out only through their press-point check
// (extension/tools/shared/input.js, press_point.js): a press without one is a
// programming error at once, not input, and a frame's site is decided only
// inside a call that acts (the input broker: tests/js/input_broker.test.mjs,
// which also has keys, bound to the focus by the broker itself). Loaded with a
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

  it('a frame is decided only for an acting call', async () => {
    await assert.rejects(guard.assertUrlAllowed(7, 'http://localhost/'), /outside a call that acts/);
    const release = guard.guardFrames(7, 'http://127.0.0.1/', 1);
    await guard.assertUrlAllowed(7, 'http://127.0.0.1/other'); // its own site: nothing to ask
    release();
    await assert.rejects(guard.assertUrlAllowed(7, 'http://127.0.0.1/'), /outside a call that acts/);
  });
});
