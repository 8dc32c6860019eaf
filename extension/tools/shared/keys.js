// Keys as CDP's Input.dispatchKeyEvent wants them: names and aliases a model
// writes ("ctrl+shift+a", "PgDn", "F5") to key, code, keyCode and text, and
// chords parsed. Pure (no chrome.*): tests/js/keys.test.mjs covers it.

export const MOD = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };
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
export const NAMED = {
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

export function keyDef(key) {
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


// "Control+Shift+A" -> {mods: ['Control','Shift'], def, mac} or {error}; `mac`: whether
// ControlOrMeta means Meta (input.js asks the platform).
export function parseChordOn(spec, mac) {
  const s = String(spec);
  if (!s) return { error: 'key is empty; e.g. Enter, Escape, Tab, ArrowDown, Control+A' };
  let parts = s.split('+');
  if (s.endsWith('+')) parts = [...parts.slice(0, -2), '+']; // "Control++" and "+"
  parts = parts.map((p) => (p === ' ' ? ' ' : p.trim())).filter((p) => p !== '');
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
