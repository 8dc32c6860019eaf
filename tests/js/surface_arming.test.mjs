// extension/surface/arming.js: when a click or a key on the person's surface
// is their answer. A page may keep the person clicking in one spot, or typing,
// while the surface opens: such a click or key must not answer.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');
const { ARM_MS, Arming, HOLD_MS, MOVE_PX, REST_MS, REST_SLACK_PX, Refusal } = await import(path.join(EXTENSION, 'surface/arming.js'));

// A mouse click: its press, then the click it makes (at the press's place: no move).
const click = (a, t, control, x = null, y = null) => {
  a.press(t, x ?? 0, y ?? 0);
  return a.pointerClick(t, control);
};

const shownAt = (t = 0) => {
  const a = new Arming();
  a.show(t);
  return a;
};

describe('arming', () => {
  it('a pointer that moved in and rested on the button clicks it', () => {
    const a = shownAt();
    a.pointer(100, 0, 0, null); // came in at the edge
    a.pointer(200, 60, 40, 'once');
    assert.equal(click(a, 200 + REST_MS, 'once'), null);
  });

  it('a click before the question was on screen ARM_MS does not count', () => {
    const a = shownAt();
    a.pointer(10, 0, 0, null);
    a.pointer(20, 60, 40, 'once');
    assert.equal(click(a, ARM_MS - 1, 'once'), Refusal.EARLY);
  });

  it('a pointer at rest where the window appeared never clicks, however long it waits', () => {
    const a = shownAt();
    for (let t = 0; t < 60_000; t += 333) {
      a.pointer(t, 500 + (t % 2), 400, 'once'); // a jitter of a pixel
      assert.equal(click(a, t, 'once'), t < ARM_MS ? Refusal.EARLY : Refusal.STILL);
    }
    assert.equal(a.moved, false);
    assert.equal(a.still, true, 'the surface moves away from a press of this pointer');
  });

  it('a click that did not rest on its button does not count', () => {
    const a = shownAt();
    a.pointer(600, 0, 0, null);
    a.pointer(700, 60, 40, 'once');
    assert.equal(click(a, 700 + REST_MS - 1, 'once'), Refusal.REST, 'too soon');
    a.pointer(2000, 160, 40, 'deny');
    assert.equal(click(a, 2000 + REST_MS, 'once'), Refusal.REST, 'another button');
    a.pointer(3000, 60, 40, 'once');
    assert.equal(click(a, 3000 + REST_MS, 'once'), null);
  });

  it('the rest starts after the move: a button the window appeared under waits for a move, then a rest', () => {
    const a = shownAt();
    a.pointer(0, 500, 400, 'once');
    a.pointer(2000, 500 + MOVE_PX, 400, 'once'); // moved within the button
    assert.equal(click(a, 2000 + REST_MS - 1, 'once'), Refusal.REST);
    assert.equal(click(a, 2000 + REST_MS - 1 + REST_MS, 'once'), null, 'a rest since that press');
  });

  it('presses in a rhythm faster than the rest never count, however long the pointer stays', () => {
    const a = shownAt();
    a.pointer(600, 0, 0, null);
    a.pointer(700, 60, 40, 'once'); // moved onto the button
    for (let t = 1000; t < 61_000; t += 333) assert.equal(click(a, t, 'once', 60, 40), Refusal.REST, `at ${t} ms`);
  });

  it('a pointer still moving across the button has not rested on it', () => {
    const a = shownAt();
    a.pointer(600, 0, 0, null);
    for (let t = 700, x = 20; t < 3000; t += 100, x += REST_SLACK_PX + 1) a.pointer(t, x, 40, 'once');
    assert.equal(click(a, 3000, 'once'), Refusal.REST);
  });

  it('a step asks for a new move and rest: "Always" is never two clicks in one spot', () => {
    const a = shownAt();
    a.pointer(600, 0, 0, null);
    a.pointer(700, 60, 40, 'always-box');
    assert.equal(click(a, 1200, 'always-box'), null);
    a.step(60, 40);
    a.pointer(1300, 62, 41, 'always'); // the confirm button came up under the pointer
    assert.equal(click(a, 3000, 'always'), Refusal.STILL);
    assert.equal(a.still, false, 'a second press in one spot is not one meant for the page: the window stays');
    a.pointer(3100, 60, 90, 'always');
    assert.equal(click(a, 3100 + REST_MS, 'always'), null);
  });

  it('hidden, nothing counts; shown again, every condition from the start', () => {
    const a = shownAt();
    a.pointer(600, 0, 0, null);
    a.pointer(700, 60, 40, 'once');
    a.hide();
    assert.equal(click(a, 2000, 'once'), Refusal.HIDDEN);
    a.show(3000);
    assert.equal(click(a, 3000 + ARM_MS, 'once'), Refusal.STILL);
  });

  it('a move the pointer did not make (same place: a layout change, a window uncovered) starts no rest', () => {
    const a = shownAt();
    a.pointer(600, 0, 0, null);
    a.pointer(700, 60, 40, null); // moved, beside the buttons
    a.pointer(800, 60, 40, 'once'); // the button came under the resting pointer
    assert.equal(click(a, 5000, 'once'), Refusal.REST);
  });

  it('a press starts no rest, and a pointer that left the window moves and rests again', () => {
    const a = shownAt();
    a.pointer(600, 0, 0, null);
    a.pointer(700, 60, 40, null);
    a.press(2000, 60, 40);
    assert.equal(click(a, 2000, 'once'), Refusal.REST, 'the press did not put the pointer on a button');
    a.leave(); // out of the window (or it lost the focus: covered)
    a.pointer(3000, 100, 40, 'once'); // back, at rest on the button
    assert.equal(click(a, 5000, 'once'), Refusal.STILL);
    assert.equal(a.still, false, 'it moved since the question showed: the window stays');
  });

  it('a touch counts when held on its button, not when tapped', () => {
    const a = shownAt();
    a.hold(100, 'once');
    assert.equal(a.holdClick(100 + HOLD_MS, 'once'), Refusal.HOLD, 'pressed before the question armed');
    a.hold(600, 'once');
    assert.equal(a.holdClick(700, 'once'), Refusal.HOLD, 'a tap');
    assert.equal(a.holdClick(600 + HOLD_MS, 'deny'), Refusal.HOLD, 'another button');
    assert.equal(a.holdClick(600 + HOLD_MS, 'once'), null);
    a.hold(2000, null); // slid off
    assert.equal(a.holdClick(4000, 'once'), Refusal.HOLD);
  });

  it('a Tab before the question armed does not count', () => {
    const a = shownAt();
    a.focus(100, 'once', true);
    assert.equal(a.keyClick(100 + 2 * REST_MS + ARM_MS, 'once'), Refusal.KEY);
  });

  it('a key counts only on a button the keyboard\'s Tab put the focus on, a moment before', () => {
    const a = shownAt();
    assert.equal(a.keyClick(1000, 'once'), Refusal.KEY, 'Enter typed for the page');
    a.focus(1000, 'once', true);
    a.focus(1100, null, false); // a letter typed: surface.js clears the Tab's focus
    assert.equal(a.keyClick(2000, 'once'), Refusal.KEY, 'Tab, then typing, then Enter');
    a.focus(1000, 'once', false); // focus by a click or a script
    assert.equal(a.keyClick(2000, 'once'), Refusal.KEY);
    a.focus(2000, 'once', true);
    assert.equal(a.keyClick(2000 + REST_MS - 1, 'once'), Refusal.KEY, 'Tab then Enter at once');
    assert.equal(a.keyClick(2000 + REST_MS, 'once'), null);
    a.step();
    assert.equal(a.keyClick(3000, 'once'), Refusal.KEY, 'after a step, a Tab again');
  });
});
