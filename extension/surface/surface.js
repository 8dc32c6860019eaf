// The surface page: shows the ask the worker (worker/person_surface.js)
// pushes over its port and sends back the button the person clicked. Only a
// trusted click counts (a script's click() is not one), and only once the ask
// has been on screen for ARM_MS (a click meant for what was there before does
// not answer a question that just appeared). The model's and the page's words
// go in as text only. The worker gone (the port closes): the window closes.

import { viewOf } from './ask_view.js';

const PORT_NAME = 'tabbridge.surface'; // worker/person_surface.js SURFACE_PORT
const ARM_MS = 500;

const $ = (id) => document.getElementById(id);
const port = chrome.runtime.connect({ name: PORT_NAME });

let shown = null; // the ask on screen
let armTimer = null;
let sent = false; // this ask's answer went out

function setArmed(on) {
  document.body.dataset.armed = String(on);
  for (const b of $('buttons').querySelectorAll('button')) b.disabled = !on || sent;
}

// A pointer pressed while the question arms starts the wait again: a page
// that keeps the person clicking in one spot cannot time a click onto a button.
document.addEventListener('pointerdown', () => {
  if (shown && !sent && document.body.dataset.armed !== 'true') arm();
}, true);

function arm() {
  clearTimeout(armTimer);
  setArmed(false);
  if (document.visibilityState !== 'visible') return; // armed when it shows
  armTimer = setTimeout(() => setArmed(true), ARM_MS);
}

function choose(event, choice) {
  // detail 0: a key (Enter, Space on a focused button) or a script, not a pointer: the
  // person typing elsewhere when the window took the focus must not answer.
  if (!event.isTrusted || event.detail === 0 || sent || document.body.dataset.armed !== 'true' || !shown) return;
  sent = true;
  setArmed(false);
  port.postMessage({ op: 'answer', askId: shown.askId, choice });
  $('note').textContent = 'Sent.';
}

function render({ ask, waiting }) {
  $('waiting').textContent = waiting > 0 ? `${waiting} more waiting` : '';
  if (ask && shown && ask.askId === shown.askId) return; // the same question: leave it armed
  shown = ask;
  sent = false;
  $('none').hidden = ask !== null;
  $('ask').hidden = ask === null;
  document.body.dataset.askId = ask ? String(ask.askId) : '';
  if (!ask) {
    $('buttons').replaceChildren();
    return;
  }
  const v = viewOf(ask);
  document.body.dataset.kind = v.kind;
  $('heading').textContent = v.heading;
  $('message').hidden = v.message === null;
  $('message').textContent = v.message ?? '';
  $('note').textContent = v.note;
  $('buttons').replaceChildren(...v.buttons.map(({ choice, label }) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.dataset.choice = choice;
    b.className = choice;
    b.addEventListener('click', (e) => choose(e, choice));
    return b;
  }));
  document.title = `tabbridge: ${v.heading}`;
  arm();
}

port.onMessage.addListener((msg) => {
  if (msg?.op === 'show') render(msg);
});
port.onDisconnect.addListener(() => window.close());
// Hidden: disarmed; shown again: armed after ARM_MS again.
document.addEventListener('visibilitychange', () => {
  if (shown && !sent) arm();
});
