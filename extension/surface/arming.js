// When a click or a key on the surface is the person's answer (docs/policy.md
// "Asking the person"). A page knows when the surface opens (its own window
// loses focus) and may keep the person clicking in one spot, or typing: a
// click or key that was meant for the page must not answer. So a control
// takes a pointer click only once the question has been on screen ARM_MS,
// the pointer has moved MOVE_PX inside the window since then (a pointer at
// rest where the window appeared has not), and it has rested on that control,
// still, REST_MS since that move and since the last press; it takes a key
// (Enter, Space) only once the keyboard's Tab put the focus on it, REST_MS
// before, with no other key since; a touch or pen only when held HOLD_MS on
// it. A step taken (the "Always" box) asks the same again of the next one.
// Pure: surface.js feeds it the events and the clock.

export const ARM_MS = 500;
export const REST_MS = 400;
export const MOVE_PX = 16;
// Resting is still: a move of more than this on the control starts its rest again.
export const REST_SLACK_PX = 4;
// A touch or a pen without hover sends no move before it presses: there, a
// press held HOLD_MS on the control (begun once the question armed) counts.
export const HOLD_MS = 700;

// Why a click did not count (the surface says so): null when it did.
export const Refusal = Object.freeze({
  HIDDEN: 'hidden',
  EARLY: 'early', // the question has not been on screen ARM_MS
  STILL: 'still', // the pointer has not moved inside the window since it showed (or since the last step)
  REST: 'rest', // the pointer has not rested on this control REST_MS
  KEY: 'key', // the keyboard's Tab has not rested on this control REST_MS
  HOLD: 'hold', // a touch or pen press was not held HOLD_MS on this control
});

export class Arming {
  #shownAt = null; // when the question showed (null: not on screen)
  #anchor = null; // the first pointer position since then: {x, y}
  #moved = false; // the pointer went MOVE_PX from the anchor
  #over = null; // {control, since, at}: the control under the pointer, still there since `since`, at `at`
  #pressRested = null; // the control the pointer had rested on when it was last pressed
  #tabbed = null; // {control, since}: the control the keyboard's Tab focused
  #still = true; // the pointer has not moved since the question showed (steps aside)
  #last = null; // the last pointer position: an event at the same place is no move
  #held = null; // {control, since}: a touch or pen press, and where

  // The question is on screen (again): every condition from the start.
  show(now) {
    this.#shownAt = now;
    this.#still = true;
    this.step();
  }

  hide() {
    this.#shownAt = null;
    this.step();
  }

  get shown() {
    return this.#shownAt !== null;
  }

  armed(now) {
    return this.#shownAt !== null && now - this.#shownAt >= ARM_MS;
  }

  // Whether the pointer moved inside the window since the question (or the last step).
  get moved() {
    return this.#moved;
  }

  // Whether the pointer has not moved since the question showed: a press now was meant for
  // what was under it before the window came (the surface moves away from it).
  get still() {
    return this.#still;
  }

  // A step counted: the next control needs its own move and rest, its own Tab.
  step(x = null, y = null) {
    this.#anchor = x === null ? null : { x, y };
    this.#last = this.#anchor;
    this.#moved = false;
    this.#over = null;
    this.#pressRested = null;
    this.#tabbed = null;
    this.#held = null;
  }

  // The pointer left the window, or the window lost or took the focus (another window may
  // have covered it): its move and rest start again.
  leave() {
    this.#anchor = null;
    this.#last = null;
    this.#moved = false;
    this.#over = null;
    this.#pressRested = null;
    this.#held = null;
  }

  // A trusted pointer event at (x, y) (screen pixels) over `control` (null: none).
  pointer(now, x, y, control) {
    if (this.#shownAt === null) return;
    if (!this.#anchor) this.#anchor = { x, y };
    // The same place: Chrome's own move (a layout change, a window shown or uncovered under a
    // pointer at rest), not the person's: it starts no rest.
    const same = this.#last !== null && this.#last.x === x && this.#last.y === y;
    this.#last = { x, y };
    if (same) return;
    if (!this.#moved && Math.hypot(x - this.#anchor.x, y - this.#anchor.y) >= MOVE_PX) {
      this.#moved = true;
      this.#still = false;
      this.#over = null; // the rest starts after the move
    }
    if (!this.#moved) return;
    const over = this.#over;
    if (control !== over?.control || Math.hypot(x - over.at.x, y - over.at.y) > REST_SLACK_PX) {
      this.#over = control === null ? null : { control, since: now, at: { x, y } };
    }
  }

  // A press: where a pointer with no move yet is anchored. The click it makes counts on the
  // control the pointer had rested on before it; the press itself starts that rest again, so
  // presses in a rhythm faster than REST_MS never count, however long the pointer stays.
  press(now, x, y) {
    if (this.#shownAt === null) return;
    if (!this.#anchor) this.#anchor = this.#last = { x, y };
    this.#pressRested = this.restingOn(now);
    if (this.#over) this.#over = { ...this.#over, since: now };
  }

  // A touch or pen press began on `control` (null: none), or ended (control null).
  hold(now, control) {
    this.#held = control !== null && this.armed(now) ? { control, since: now } : null;
  }

  // The focus went to `control` (null: elsewhere, or any key but Tab: the focus must be
  // fresh from a Tab); byTab: the keyboard's Tab moved it, once the question armed.
  focus(now, control, byTab) {
    this.#tabbed = byTab && control !== null && this.armed(now) ? { control, since: now } : null;
  }

  // The control the pointer rests on, once it has rested REST_MS: for the surface to show it ready.
  restingOn(now) {
    return this.#over && now - this.#over.since >= REST_MS ? this.#over.control : null;
  }

  // A pointer's click on `control`: null when it counts, else a Refusal.
  pointerClick(now, control) {
    if (this.#shownAt === null) return Refusal.HIDDEN;
    if (!this.armed(now)) return Refusal.EARLY;
    if (!this.#moved) return Refusal.STILL;
    if (this.#pressRested !== control || this.#over?.control !== control) return Refusal.REST;
    return null;
  }

  // A touch's or pen's click on `control`, the press it ends begun at `held`: null when it counts.
  holdClick(now, control) {
    if (this.#shownAt === null) return Refusal.HIDDEN;
    if (!this.armed(now)) return Refusal.EARLY;
    if (this.#held?.control !== control || now - this.#held.since < HOLD_MS) return Refusal.HOLD;
    return null;
  }

  // A key's click (Enter, Space) on `control`: null when it counts, else a Refusal.
  keyClick(now, control) {
    if (this.#shownAt === null) return Refusal.HIDDEN;
    if (!this.armed(now)) return Refusal.EARLY;
    if (this.#tabbed?.control !== control || now - this.#tabbed.since < REST_MS) return Refusal.KEY;
    return null;
  }
}
