// Trusted input through CDP Input.* on the tab's top-level session (the browser
// routes events to the right frame, out-of-process iframes included).
// Coordinates are top-level viewport CSS px. A dialog opened by the event's
// handler blocks the CDP call until the dialog is answered, so every dispatch
// races the dialog: {dialog} comes back instead of hanging. Every dispatch
// first checks the call's signal (opts.signal): once the call was cancelled or
// ran out of time, no further event goes to the page.

import { cdp } from './cdp.js';
import { dialogPromise } from './dialogs.js';
import { HUNG_ADVICE, PageError, checkpoint } from './targets.js';

async function send(tabId, method, params, signal) {
  checkpoint(signal, `the next input event (${params.type ?? method})`);
  const d = dialogPromise(tabId);
  const call = cdp(tabId, method, params);
  call.catch(() => {}); // may settle after the dialog; nobody waits then
  try {
    const winner = await Promise.race([call.then(() => null), d.promise]);
    return winner ? { dialog: winner } : {};
  } catch (e) {
    if (/timed out/.test(e.message)) {
      throw new PageError(`the page did not take the input event (${params.type ?? method}) in time: it is busy or hung ` +
        `(a script stuck in a loop?); nothing more was sent — ${HUNG_ADVICE}`);
    }
    throw e;
  } finally {
    d.cancel();
  }
}

const BUTTONS = { left: 1, right: 2, middle: 4 };

// Sequence stops at the first dialog. Returns {dialog?}.
async function sequence(tabId, steps, signal) {
  for (const [method, params] of steps) {
    const r = await send(tabId, method, params, signal);
    if (r.dialog) return r;
  }
  return {};
}

export function click(tabId, x, y, { button = 'left', doubleClick = false, modifiers = 0, signal } = {}) {
  const b = BUTTONS[button] ?? 1;
  const steps = [['Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, modifiers }]];
  const clicks = doubleClick ? [1, 2] : [1];
  for (const clickCount of clicks) {
    steps.push(['Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button, buttons: b, clickCount, modifiers }]);
    steps.push(['Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button, buttons: 0, clickCount, modifiers }]);
  }
  return sequence(tabId, steps, signal);
}

export function hover(tabId, x, y, { signal } = {}) {
  return sequence(tabId, [['Input.dispatchMouseEvent', { type: 'mouseMoved', x, y }]], signal);
}

// A trusted mouse wheel at (x, y): scrolls whatever is under that point.
export function mouseWheel(tabId, x, y, deltaX, deltaY, { signal } = {}) {
  return sequence(tabId, [
    ['Input.dispatchMouseEvent', { type: 'mouseMoved', x, y }],
    ['Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX, deltaY }],
  ], signal);
}

export function insertText(tabId, text, { signal } = {}) {
  return send(tabId, 'Input.insertText', { text }, signal);
}

// ---- keys ------------------------------------------------------------------

const MOD = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };
const ALIASES = {
  ctrl: 'Control', control: 'Control', alt: 'Alt', option: 'Alt', shift: 'Shift', meta: 'Meta', cmd: 'Meta',
  command: 'Meta', super: 'Meta', win: 'Meta', esc: 'Escape', escape: 'Escape', return: 'Enter', enter: 'Enter',
  del: 'Delete', delete: 'Delete', backspace: 'Backspace', tab: 'Tab', space: ' ', spacebar: ' ', up: 'ArrowUp',
  down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', arrowup: 'ArrowUp', arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', home: 'Home', end: 'End', pageup: 'PageUp', pagedown: 'PageDown',
  pgup: 'PageUp', pgdn: 'PageDown', insert: 'Insert', ins: 'Insert', capslock: 'CapsLock', plus: '+',
  controlormeta: 'ControlOrMeta',
};
// key -> [code, keyCode, text?]
const NAMED = {
  Enter: ['Enter', 13, '\r'], Tab: ['Tab', 9], Escape: ['Escape', 27], Backspace: ['Backspace', 8],
  Delete: ['Delete', 46], ' ': ['Space', 32, ' '], ArrowUp: ['ArrowUp', 38], ArrowDown: ['ArrowDown', 40],
  ArrowLeft: ['ArrowLeft', 37], ArrowRight: ['ArrowRight', 39], Home: ['Home', 36], End: ['End', 35],
  PageUp: ['PageUp', 33], PageDown: ['PageDown', 34], Insert: ['Insert', 45], CapsLock: ['CapsLock', 20],
  Shift: ['ShiftLeft', 16], Control: ['ControlLeft', 17], Alt: ['AltLeft', 18], Meta: ['MetaLeft', 91],
  ContextMenu: ['ContextMenu', 93],
};
for (let i = 1; i <= 12; i++) NAMED[`F${i}`] = [`F${i}`, 111 + i];
const PUNCT = {
  '-': ['Minus', 189], '=': ['Equal', 187], '[': ['BracketLeft', 219], ']': ['BracketRight', 221],
  '\\': ['Backslash', 220], ';': ['Semicolon', 186], "'": ['Quote', 222], ',': ['Comma', 188], '.': ['Period', 190],
  '/': ['Slash', 191], '`': ['Backquote', 192],
};
const SHIFTED = {
  '!': '1', '@': '2', '#': '3', $: '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0', _: '-', '+': '=',
  '{': '[', '}': ']', '|': '\\', ':': ';', '"': "'", '<': ',', '>': '.', '?': '/', '~': '`',
};

function keyDef(key) {
  if (NAMED[key]) {
    const [code, keyCode, text] = NAMED[key];
    return { key, code, keyCode, text };
  }
  if (key.length === 1 || [...key].length === 1) {
    const ch = key;
    if (/[a-z]/i.test(ch)) {
      const up = ch.toUpperCase();
      return { key: ch, code: `Key${up}`, keyCode: up.charCodeAt(0), text: ch, shift: ch !== ch.toLowerCase() };
    }
    if (/[0-9]/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
    if (PUNCT[ch]) return { key: ch, code: PUNCT[ch][0], keyCode: PUNCT[ch][1], text: ch };
    if (SHIFTED[ch]) {
      const base = keyDef(SHIFTED[ch]);
      return { key: ch, code: base.code, keyCode: base.keyCode, text: ch, shift: true };
    }
    return { key: ch, code: '', keyCode: 0, text: ch };
  }
  return null;
}

let platformOs = null;
async function isMac() {
  if (platformOs === null) {
    try {
      platformOs = (await chrome.runtime.getPlatformInfo()).os;
    } catch {
      platformOs = '';
    }
  }
  return platformOs === 'mac';
}

// Mac editing shortcuts need explicit commands (other platforms bind them in the renderer).
const MAC_COMMANDS = { a: 'selectAll', c: 'copy', x: 'cut', v: 'paste', z: 'undo' };

// "Control+Shift+A" -> {mods: ['Control','Shift'], key: def} or {error}.
export async function parseChord(spec) {
  const s = String(spec);
  if (!s) return { error: 'key is empty; e.g. Enter, Escape, Tab, ArrowDown, Control+A' };
  let parts = s.split('+');
  if (s.endsWith('+')) parts = [...parts.slice(0, -2), '+']; // "Control++" and "+"
  parts = parts.map((p) => (p === ' ' ? ' ' : p.trim())).filter((p) => p !== '');
  const mac = await isMac();
  const names = parts.map((p) => {
    const alias = ALIASES[p.toLowerCase()];
    if (alias === 'ControlOrMeta') return mac ? 'Meta' : 'Control';
    if (alias) return alias;
    if (/^f([1-9]|1[0-2])$/i.test(p)) return p.toUpperCase();
    return p;
  });
  const keyName = names.pop();
  const mods = names;
  for (const m of mods) {
    if (!(m in MOD)) return { error: `"${m}" in "${s}" is not a modifier (Control, Alt, Shift, Meta)` };
  }
  const def = keyDef(keyName);
  if (!def) return { error: `unknown key "${keyName}" in "${s}"; use e.g. Enter, Tab, Escape, Backspace, ArrowDown, PageDown, F5, a, Control+A` };
  return { mods, def, mac };
}

export async function pressChord(tabId, chord, { signal } = {}) {
  const { mods, def, mac } = chord;
  let modifiers = 0;
  const steps = [];
  for (const m of mods) {
    modifiers |= MOD[m];
    const [code, keyCode] = NAMED[m];
    steps.push(['Input.dispatchKeyEvent', { type: 'rawKeyDown', key: m, code, windowsVirtualKeyCode: keyCode, modifiers }]);
  }
  if (def.key in MOD) {
    // A lone modifier: its down is the whole press.
    const [code, keyCode] = NAMED[def.key];
    modifiers |= MOD[def.key];
    steps.push(['Input.dispatchKeyEvent', { type: 'rawKeyDown', key: def.key, code, windowsVirtualKeyCode: keyCode, modifiers }]);
    steps.push(['Input.dispatchKeyEvent', { type: 'keyUp', key: def.key, code, windowsVirtualKeyCode: keyCode, modifiers: modifiers & ~MOD[def.key] }]);
  } else {
    const commandish = modifiers & (MOD.Control | MOD.Alt | MOD.Meta);
    let key = def.key;
    let text = commandish ? undefined : def.text;
    if ((modifiers & MOD.Shift) && text && /^[a-z]$/.test(text)) {
      key = text.toUpperCase();
      text = key;
    }
    const down = { type: text ? 'keyDown' : 'rawKeyDown', key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers };
    if (text) {
      down.text = text;
      down.unmodifiedText = text;
    }
    if (mac && (modifiers & MOD.Meta) && MAC_COMMANDS[def.key.toLowerCase()]) down.commands = [MAC_COMMANDS[def.key.toLowerCase()]];
    steps.push(['Input.dispatchKeyEvent', down]);
    steps.push(['Input.dispatchKeyEvent', { type: 'keyUp', key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers }]);
  }
  for (const m of [...mods].reverse()) {
    modifiers &= ~MOD[m];
    const [code, keyCode] = NAMED[m];
    steps.push(['Input.dispatchKeyEvent', { type: 'keyUp', key: m, code, windowsVirtualKeyCode: keyCode, modifiers }]);
  }
  return sequence(tabId, steps, signal);
}

// type {keyEvents}: each character as a trusted key press (keydown, keypress
// and input, keyup — CDP keyDown with text, then keyUp) into the focused
// element, for fields that react to keys; a newline is Enter. Stops at the
// first dialog. Returns {dialog?}.
export function typeKeys(tabId, text, { signal } = {}) {
  const steps = [];
  for (const ch of String(text)) {
    const def = ch === '\n' || ch === '\r' ? keyDef('Enter') : keyDef(ch);
    const base = { key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode };
    steps.push(['Input.dispatchKeyEvent', { type: 'keyDown', ...base, text: def.text, unmodifiedText: def.text }]);
    steps.push(['Input.dispatchKeyEvent', { type: 'keyUp', ...base }]);
  }
  return sequence(tabId, steps, signal);
}
