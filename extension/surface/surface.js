// The surface page: shows the ask the worker (worker/person_surface.js)
// pushes over its port and sends back the person's answer. Only a trusted
// click or key counts, and only a deliberate one (arming.js): the question on
// screen a moment, the pointer moved inside the window and rested on the
// button (or the keyboard's Tab rested on it). A click with a pointer that
// has not moved since the window appeared is one meant for what was there
// before: the window moves away from it. "Always" is a second step: its box
// ticked shows the confirm button. The buttons' order and places vary from
// one question to the next. The model's and the page's words go in as text
// only. The worker gone (the port closes): the window closes.

import { ARM_MS, Arming, REST_MS, Refusal } from './arming.js';
import { viewOf } from './ask_view.js';

const PORT_NAME = 'tabbridge.surface'; // worker/person_surface.js SURFACE_PORT

const $ = (id) => document.getElementById(id);
const port = chrome.runtime.connect({ name: PORT_NAME });
const arming = new Arming();
const now = () => performance.now();

let shown = null; // the ask on screen
let sent = false; // this ask's answer went out
let armTimer = null;
let readyTimer = null;
let tabPressed = false; // a Tab keydown whose focus move has not come yet

const HINTS = Object.freeze({
  [Refusal.EARLY]: 'Not yet: the question has only just appeared.',
  [Refusal.STILL]: 'That click did not count: move the pointer onto a button first.',
  [Refusal.REST]: 'That click did not count: hold the pointer on the button a moment, then click.',
  [Refusal.KEY]: 'That key did not count: Tab to a button and wait a moment before Enter.',
  [Refusal.HOLD]: 'That touch did not count: press and hold the button a moment.',
});

const randomBelow = (n) => crypto.getRandomValues(new Uint32Array(1))[0] % Math.max(1, n);
const controls = () => [...document.querySelectorAll('#controls [data-control]')];
const controlOf = (target) => target?.closest?.('[data-control]')?.dataset.control ?? null;

function setArmed(on) {
  document.body.dataset.armed = String(on);
}

// The question is (again) on screen: every condition from the start.
function arm() {
  clearTimeout(armTimer);
  setArmed(false);
  markReady(null);
  if (document.visibilityState !== 'visible' || !shown || sent) {
    arming.hide();
    return;
  }
  arming.show(now());
  armTimer = setTimeout(() => setArmed(true), ARM_MS);
}

// The control a click would now count on, outlined.
function markReady(control) {
  for (const c of controls()) c.dataset.ready = String(c.dataset.control === control);
}

function watchRest() {
  clearTimeout(readyTimer);
  markReady(arming.restingOn(now()));
  readyTimer = setTimeout(() => markReady(arming.restingOn(now())), REST_MS + 10);
}

let pressType = 'mouse'; // the pointer type of the last press: a click after a touch or pen press is its own
const acts = new Map(); // control -> what it does once it counts (a click, a key, a held touch)
let refusals = 0; // clicks and keys that did not count, for the tests (body[data-refused])

document.addEventListener('pointermove', (e) => {
  if (!e.isTrusted || !shown || sent) return;
  if (e.pointerType === 'mouse') {
    arming.pointer(now(), e.screenX, e.screenY, controlOf(e.target));
    watchRest();
  } else if (controlOf(document.elementFromPoint(e.clientX, e.clientY)) !== controlOf(e.target)) {
    arming.hold(now(), null); // the finger slid off the control it pressed
  }
}, true);

// A mouse press before the question armed starts the wait again; one with a pointer that has
// not moved since the window appeared was meant for the page under it: the window moves away
// (and the click it makes is refused: the pointer did not move). A press restarts the rest.
// A touch or pen press starts a hold on its control, decided when it lifts.
document.addEventListener('pointerdown', (e) => {
  if (!e.isTrusted || !shown || sent || !arming.shown) return;
  pressType = e.pointerType;
  if (e.pointerType !== 'mouse') {
    arming.hold(now(), controlOf(e.target));
    return;
  }
  arming.press(now(), e.screenX, e.screenY);
  markReady(null);
  if (arming.still) {
    say(Refusal.STILL); // said now: the window may be gone from under the pointer before its click
    port.postMessage({
      op: 'moveAway',
      askId: shown.askId,
      x: Math.round(e.screenX),
      y: Math.round(e.screenY),
      screen: { left: screen.availLeft, top: screen.availTop, width: screen.availWidth, height: screen.availHeight },
    });
  } else if (!arming.armed(now())) {
    arm();
  }
}, true);
document.addEventListener('pointercancel', () => arming.hold(now(), null), true);
// A touch or pen lifted on the control it pressed, held long enough: that control's answer.
// (Decided here, not on a click: after a long press Chrome may send a context menu, no click.)
document.addEventListener('pointerup', (e) => {
  if (!e.isTrusted || e.pointerType === 'mouse' || !shown || sent) return;
  const control = controlOf(document.elementFromPoint(e.clientX, e.clientY));
  const refusal = control === null ? null : arming.holdClick(now(), control);
  arming.hold(now(), null);
  if (control === null) return;
  say(refusal);
  if (refusal === null) acts.get(control)?.(null);
}, true);
document.addEventListener('contextmenu', (e) => e.preventDefault());
// A mouse pointer left the window: its move and rest start again when it comes back. (A touch or
// pen without hover "leaves" after every lift: that is no leaving.)
document.addEventListener('pointerout', (e) => {
  if (e.isTrusted && e.pointerType === 'mouse' && e.relatedTarget === null) {
    arming.leave();
    markReady(null);
  }
}, true);
// The window lost the focus (another window may cover it now): the same, and the keyboard's Tab
// too. (Not on taking it: a person's first click on the window gives it the focus.)
window.addEventListener('blur', (e) => {
  if (e.target !== window) return;
  tabPressed = false;
  arming.leave();
  arming.focus(now(), null, false);
  markReady(null);
});

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);
document.addEventListener('keydown', (e) => {
  if (!e.isTrusted) return;
  if (e.key === 'Tab' && !e.repeat) {
    tabPressed = true; // for the focus move this keydown makes, and no later one
    setTimeout(() => { tabPressed = false; }, 0);
  } else if (e.repeat) {
    e.preventDefault(); // a key held down answers nothing
    arming.focus(now(), null, false);
  } else if (e.key !== 'Enter' && e.key !== ' ' && !MODIFIERS.has(e.key)) {
    arming.focus(now(), null, false); // typing: the Tab's focus no longer counts
  }
}, true);
document.addEventListener('focusin', (e) => {
  arming.focus(now(), controlOf(e.target), tabPressed);
  tabPressed = false;
}, true);
document.addEventListener('focusout', () => arming.focus(now(), null, false), true);

function say(refusal) {
  $('hint').textContent = refusal ? HINTS[refusal] ?? '' : '';
  if (refusal) document.body.dataset.refused = String(++refusals);
}

// Whether this click is the person's deliberate one; says why not when it is not. A touch's or
// pen's is decided when it lifts (pointerup), never by its click.
function counts(event, control) {
  if (!event.isTrusted || sent || !shown) return false;
  // detail 0: a key (Enter, Space on a focused button), not a pointer.
  const key = event.detail === 0;
  if (!key && pressType !== 'mouse') return false;
  const refusal = key ? arming.keyClick(now(), control) : arming.pointerClick(now(), control);
  say(refusal);
  if (refusal && key) arming.focus(now(), null, false); // a refused key ends the Tab's turn too
  return refusal === null;
}

function answer(choice) {
  sent = true;
  clearTimeout(readyTimer);
  arming.hide();
  setArmed(false);
  markReady(null);
  for (const c of controls()) c.disabled = true;
  port.postMessage({ op: 'answer', askId: shown.askId, choice });
  $('note').textContent = 'Sent.';
}

function button({ choice, label }, control = choice) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.className = choice;
  b.dataset.choice = choice;
  b.dataset.control = control;
  acts.set(control, () => answer(choice));
  b.addEventListener('click', (e) => {
    if (counts(e, control)) answer(choice);
  });
  return b;
}

// "Always": the box, ticked deliberately, shows its confirm button (itself a deliberate click away).
function alwaysStep(always) {
  const box = $('always-box');
  box.hidden = always === null;
  $('always-step').hidden = true;
  $('always-step').replaceChildren();
  if (!always) return;
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.id = 'always';
  toggle.className = 'box';
  toggle.setAttribute('role', 'checkbox');
  toggle.setAttribute('aria-checked', 'false');
  toggle.dataset.control = 'always-box';
  toggle.textContent = `☐ ${always.box}`;
  // e null: a held touch. The next step needs its own move and rest (or its own Tab, or hold).
  const flip = (e) => {
    const on = toggle.getAttribute('aria-checked') !== 'true';
    toggle.setAttribute('aria-checked', String(on));
    toggle.textContent = `${on ? '☑' : '☐'} ${always.box}`;
    $('always-step').hidden = !on;
    const pointer = e !== null && e.detail !== 0;
    arming.step(pointer ? e.screenX : null, pointer ? e.screenY : null);
    markReady(null);
  };
  acts.set('always-box', flip);
  toggle.addEventListener('click', (e) => {
    if (counts(e, 'always-box')) flip(e);
  });
  box.replaceChildren(toggle);
  const confirm = button(always);
  confirm.style.marginLeft = `${randomBelow(160)}px`;
  $('always-step').replaceChildren(confirm);
}

function render({ ask, waiting }) {
  $('waiting').textContent = waiting > 0 ? `${waiting} more waiting` : '';
  if (ask && shown && ask.askId === shown.askId) return; // the same question: leave it as it is
  shown = ask;
  sent = false;
  $('none').hidden = ask !== null;
  $('ask').hidden = ask === null;
  $('hint').textContent = '';
  document.body.dataset.askId = ask ? String(ask.askId) : '';
  acts.clear();
  if (!ask) {
    $('buttons').replaceChildren();
    alwaysStep(null);
    arm();
    return;
  }
  const v = viewOf(ask);
  document.body.dataset.kind = v.kind;
  $('heading').textContent = v.heading;
  $('asker').hidden = !v.asker;
  $('asker').textContent = v.asker;
  $('agent').hidden = v.message === null;
  $('message').textContent = v.message ?? '';
  $('note').textContent = v.note;
  // Places vary: a page that learnt where a button was cannot count on it.
  const buttons = v.buttons.map((b) => button(b));
  if (randomBelow(2) === 1) buttons.reverse();
  $('buttons').replaceChildren(...buttons);
  $('controls').style.marginLeft = `${randomBelow(160)}px`;
  $('controls').style.marginTop = `${randomBelow(40)}px`;
  alwaysStep(v.always);
  // The keys' order varies too: no fixed run of Tabs reaches a button, or "Always".
  const order = controls();
  for (let i = order.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  order.forEach((c, i) => { c.tabIndex = i + 1; });
  document.title = `tabbridge: ${v.heading}`;
  arm();
}

port.onMessage.addListener((msg) => {
  if (msg?.op === 'show') render(msg);
});
port.onDisconnect.addListener(() => window.close());
// Hidden: disarmed; shown again: armed from the start.
document.addEventListener('visibilitychange', () => arm());
