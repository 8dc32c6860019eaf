// Filling form fields with trusted input: type, fill_form and the page's
// form tools (form_tool_call.js) focus, type and set fields the same way.

import { ToolError } from '../stack/errors.js';
import { insertText, parseChord, pressChord, typeKeys } from './input.js';
import { assertReached, locate, onTarget, runAgent, targetOf } from './targets.js';
import { clickAt, show } from './act.js';
import { shieldFocus } from './focus_shield.js';

// Focuses a text field (script focus, else a real click) with its text selected
// (clear) or the caret at the end. Returns the focus op's answer.
export async function focusField(tabId, target, clear, signal) {
  const t = await targetOf(tabId, target);
  let f = await runAgent(tabId, t.frameId, 'focus', { ...t.args, clear, watch: true }, { signal });
  if (!f.focused) {
    const loc = await locate(tabId, target, { signal });
    const r = await clickAt(tabId, loc, { signal });
    if (r.dialog) return { ...f, dialog: r.dialog, frameId: t.frameId, args: t.args };
    f = await runAgent(tabId, t.frameId, 'focus', { ...t.args, clear, watch: true }, { signal });
    if (!f.focused) throw new ToolError(`could not focus ${f.desc} — click it first, then use press_key`);
  }
  return { ...f, frameId: t.frameId, args: t.args };
}

// Types text into the field focusField focused (or clears it), and makes sure
// the typing reached it: text that went to another element (the page moved
// the focus) is an error (assertReached). submit: then Enter (type's submit).
// Keys go to the frame holding the focus, which the page may hand to a frame
// of another site: the input broker decides that frame's site before every
// key (input.js binds each to the focus), and while they go to a field of the
// top document no frame element can take the focus (focus_shield.js).
export async function typeInto(tabId, f, text, { clear = false, signal, keyEvents = false, submit = false } = {}) {
  const unshield = await shieldFocus(tabId, f.frameId);
  try {
    let r = {};
    if (text.length) r = await (keyEvents ? typeKeys(tabId, text, { signal }) : insertText(tabId, text, { signal }));
    else if (clear && !f.empty) r = await pressChord(tabId, await parseChord('Backspace'), { signal });
    if (r.dialog) return r;
    if (text.length || (clear && !f.empty)) await assertReached(tabId, f, ['keydown', 'beforeinput', 'input'], 'typing', signal);
    return submit ? await pressChord(tabId, await parseChord('Enter'), { signal }) : r;
  } finally {
    unshield();
  }
}

// The inputs a picker fills (date, time, colour, slider): typing does not
// reach them, so their value is set in the page (the agent's setValue op, its
// native setter then input and change). The one list: fill_form, type and the
// page's form tools (form_tool_call.js) use it.
export const PICKER_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);
const PICKER_FORMATS = {
  date: 'YYYY-MM-DD, e.g. 2026-12-24',
  time: 'HH:MM (24-hour), e.g. 14:30',
  'datetime-local': 'YYYY-MM-DDTHH:MM, e.g. 2026-12-24T14:30',
  month: 'YYYY-MM, e.g. 2026-12',
  week: 'YYYY-Www, e.g. 2026-W52',
  color: '#rrggbb, e.g. #ff8800',
  range: "a number within the slider's min, max and step",
};

// Sets a picker input (PICKER_TYPES) to value; a value the browser refuses
// (a date as 24/12/2026) is a ToolError naming the format the field takes.
// frameId, args: the target as targetOf gives it. Returns the agent's answer.
export async function setPicker(tabId, frameId, args, value, signal) {
  const r = await runAgent(tabId, frameId, 'setValue', { ...args, value: String(value) }, { signal });
  if (r.refused) {
    throw new ToolError(`${r.desc} did not take ${show(String(value))} (the browser refused it${r.got ? ` and made it ${show(r.got)}` : ''}): ` +
      `a ${r.type} field takes ${PICKER_FORMATS[r.type] ?? 'another format'}`);
  }
  return r;
}

const TRUE_WORDS = new Set(['true', 'on', 'yes', 'checked', '1', 'y']);
const FALSE_WORDS = new Set(['false', 'off', 'no', 'unchecked', '0', 'n', '']);
function toBool(v) {
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (TRUE_WORDS.has(s)) return true;
  if (FALSE_WORDS.has(s)) return false;
  return null;
}

export async function fillOne(tabId, field, signal) {
  const target = { ref: field.ref, selector: field.selector };
  const info = await onTarget(tabId, target, 'fieldInfo', {}, { signal });
  const { desc } = info;
  if (info.disabled) throw new ToolError(`${desc} is disabled`);
  const value = field.value;
  if (PICKER_TYPES.has(info.type)) {
    if (typeof value !== 'string' && typeof value !== 'number') throw new ToolError(`${desc} is a ${info.type} field: give a string value`);
    const r = await setPicker(tabId, info.frameId, info.args, value, signal);
    return { text: `${r.desc} = ${show(r.value)}` };
  }
  switch (info.kind) {
    case 'text': {
      if (typeof value !== 'string') throw new ToolError(`${desc} is a text field: give a string value`);
      const f = await focusField(tabId, target, true, signal);
      if (f.dialog) return { text: `${desc}: dialog`, dialog: f.dialog };
      const r = await typeInto(tabId, f, value, { clear: true, signal });
      const secret = !!(info.state?.secret || info.state?.type === 'password' || f.secret);
      return { text: `${desc} = ${show(secret ? '•••' : value)}`, dialog: r.dialog, secret: secret && value ? value : undefined };
    }
    case 'checkbox':
    case 'radio': {
      const want = toBool(value);
      if (want === null) throw new ToolError(`${desc} is a ${info.kind}: give true or false`);
      const has = info.checked === true;
      if (has === want) return { text: `${desc} already ${want ? 'checked' : 'unchecked'}` };
      if (info.kind === 'radio' && !want) throw new ToolError(`${desc} cannot be unchecked — check another option of its group`);
      const loc = await locate(tabId, target, { signal });
      const r = await clickAt(tabId, loc, { signal });
      if (r.dialog) return { text: `clicked ${desc}`, dialog: r.dialog };
      const { state } = await runAgent(tabId, loc.frameId, 'state', loc.args, { timeoutMs: 3000 });
      if ((state.checked === true) !== want) throw new ToolError(`clicked ${desc} but it is still ${state.checked ? 'checked' : 'unchecked'}`);
      return { text: `${desc} ${want ? 'checked' : 'unchecked'}` };
    }
    case 'select': {
      const values = Array.isArray(value) ? value.map(String) : [String(value)];
      const r = await onTarget(tabId, target, 'select', { values }, { signal });
      return { text: `${desc} = ${r.selected.map(show).join(', ')}` };
    }
    default:
      throw new ToolError(`${desc} is not a form field (text, checkbox, radio or select) — use click or type`);
  }
}
