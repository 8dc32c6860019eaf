// Trusted input on the tab's top-level session (the browser routes events to
// the right frame, out-of-process iframes included), sent by the input broker
// (worker/input_broker.js), each event bound to the frames it affects: a
// press, release, wheel turn or drop to where its press check (press_point.js)
// says it lands, a key or text to the frames holding the focus, asked before
// every key (frame_guard.js focusedFrames); the broker decides their sites.
// Coordinates are top-level viewport CSS px. A dialog opened by the event's
// handler blocks the CDP call until the dialog is answered, so every dispatch
// races the dialog: {dialog} comes back instead of hanging. Every dispatch
// first checks the call's signal (opts.signal): once the call was cancelled or
// ran out of time, no further event goes to the page.

import { cdp, childTargets, onAttach } from '../../worker/cdp.js';
import { dialogPromise } from '../../worker/dialogs.js';
import { Bind, Denied, Op, effect, heldKey, interceptDrags, keyWitness, strayKeys } from '../../worker/input_broker.js';
import { sleep } from '../../worker/time.js';
import { checkpoint, HUNG_ADVICE, ToolError } from '../stack/errors.js';
import { focusedFrames } from '../stack/frame_guard.js';
import { MOD, NAMED, keyDef, parseChordOn } from './keys.js';

// The page keeps thinking it has focus while the user works elsewhere, so
// focus()/typing behave as if the window were in front. (Registered when the
// worker imports this module: its top level.)
onAttach(async (tabId, send, { sessionId }) => {
  if (!sessionId) await send('Emulation.setFocusEmulationEnabled', { enabled: true });
});

async function send(tabId, method, params, bind, signal) {
  checkpoint(signal, `the next input event (${params.type ?? method})`);
  const d = dialogPromise(tabId);
  // A raw key on a page with frames in other processes goes with the page
  // held (input_broker.js heldKey): no frame can be handed the focus meanwhile.
  const held = method === Op.KEY && childTargets(tabId).some((c) => c.targetInfo?.type === 'iframe');
  const call = (held ? heldKey : effect)(tabId, method, params, { bind });
  call.catch(() => {}); // may settle after the dialog; nobody waits then
  try {
    const winner = await Promise.race([call.then(() => null), d.promise]);
    return winner ? { dialog: winner } : {};
  } catch (e) {
    if (/timed out/.test(e.message)) {
      throw new ToolError(`the page did not take the input event (${params.type ?? method}) in time: it is busy or hung ` +
        `(a script stuck in a loop?); nothing more was sent — ${HUNG_ADVICE}`);
    }
    throw e;
  } finally {
    d.cancel();
  }
}

const BUTTONS = { left: 1, right: 2, middle: 4 };

// A tab the browser does not show in front (the agent's, open_tab) gets a
// frame only about once a second after its first few, and the renderer takes
// a mouse move or a wheel turn only at a frame: each would wait up to a
// second. A screencast brings the tab back to full frame rate at once (and it
// stays there a while after it stops); its frames are not wanted (never
// acked, tiny). bench/peers.mjs: click 1017 -> 40 ms p50 (Chromium 156);
// tests/e2e/background_input.test.mjs prints the frame rate after input.
const CONTINUOUS = new Set(['mouseMoved', 'mouseWheel']);

// Started ahead by a caller that has other steps to make first (clickAt:
// while the press check is armed): {ready, stop()}; sequence's `cast`.
export function fullFrameRate(tabId) {
  const ready = cdp(tabId, 'Page.startScreencast', { format: 'jpeg', quality: 1, maxWidth: 16, maxHeight: 16 }).catch(() => {});
  let stopped = false;
  return {
    ready,
    stop() {
      if (stopped) return;
      stopped = true;
      ready.then(() => cdp(tabId, 'Page.stopScreencast')).catch(() => {});
    },
  };
}

// A tab the browser shows gets its frames at full rate already.
export const SHOWN_TAB = Object.freeze({ ready: Promise.resolve(), stop() {} });

async function atFullFrameRate(tabId, steps, fn, cast) {
  const continuous = ([method, params]) => method === Op.MOUSE && CONTINUOUS.has(params.type);
  if (!steps.some((step) => Array.isArray(step) && continuous(step))) return fn();
  if (cast) {
    await cast.ready;
    return fn();
  }
  const own = fullFrameRate(tabId);
  await own.ready;
  try {
    return await fn();
  } finally {
    own.stop();
  }
}

// The events that press or let go: each is sent only after its press check
// (press_point.js) passed at that very point, just before it.
const PRESSES = new Set(['mousePressed', 'mouseReleased', 'drop', 'mouseWheel']);
const pressAt = ([method, params]) => (method === Op.MOUSE || method === Op.DRAG) && PRESSES.has(params.type);

// Keys and text go where the focus is: each is bound to the frames holding it,
// asked just before it goes.
const keyAt = ([method]) => method === Op.TEXT || method === Op.KEY;

// What a step is bound to (input_broker.js Bind).
function bindingOf(tabId, [method, params, check]) {
  if (keyAt([method])) return Bind.focus(async () => (await focusedFrames(tabId)).frames);
  if (pressAt([method, params])) {
    return Bind.press(async () => {
      const frames = await check(params.x, params.y);
      return Array.isArray(frames) ? frames : [];
    });
  }
  return Bind.pointer();
}

// What went before a refusal, in the refusal's words: "nothing was done" is
// said only when nothing was.
function sentBefore(e, sent) {
  if (!sent.length) return e;
  const what = `${sent.length} input event${sent.length === 1 ? '' : 's'} (${[...new Set(sent)].join(', ')}) had gone to the page before it; nothing after it was sent`;
  const reword = (text) => (/nothing was (done|pressed)|no key was sent/.test(text)
    ? text.replace(/nothing was (done|pressed)|no key was sent/, what) : `${text} — ${what}`);
  if (e instanceof Denied) {
    const result = structuredClone(e.result);
    const first = result.content?.find((c) => c.type === 'text');
    if (first) first.text = reword(first.text);
    return new Denied(result);
  }
  if (e instanceof ToolError) return new ToolError(reword(e.message), { stale: e.stale });
  return e;
}

// After raw keys: keys that reached a frame of a site the policy does not
// allow to act (the page moved the focus there after the check) are told.
function strayAnswer(stray) {
  const where = stray.map((s) => `${s.n} key event${s.n === 1 ? '' : 's'} reached a frame of ${s.site}, which the policy does not allow to act`).join('; ');
  return new ToolError(`${where}: the page moved the focus there after the check and before the key (docs/policy.md) — what it did there is not known; take a new snapshot`);
}

// Sequence stops at the first dialog. A step is [op, params] (input_broker.js
// Op), or a number: that many ms of the hand holding still. Every press and
// release carries its press check as a third element: check(x, y) returns the
// frames it lands in (the broker decides them) or throws to stop before it.
// A sequence with keys or text has the key witness armed while it goes: a key
// that reached a frame the policy does not allow is told, not passed over.
// Returns {dialog?}. cast: a fullFrameRate the caller started (and stops).
function sequence(tabId, steps, signal, cast) {
  const input = steps.filter((step) => Array.isArray(step));
  for (const step of input) {
    if (pressAt(step) && typeof step[2] !== 'function') throw new Error(`${step[1].type} without its press check (press_point.js)`);
  }
  const keys = input.some(keyAt);
  return atFullFrameRate(tabId, steps, async () => {
    // Keys and text: the frames of other sites count what reaches them.
    const witness = keys ? await keyWitness(tabId) : null;
    const sent = [];
    let result;
    let failure = null;
    try {
      for (const step of steps) {
        if (typeof step === 'number') {
          await sleep(step); // the next step checks the signal
          continue;
        }
        const [method, params] = step;
        let r;
        try {
          r = await send(tabId, method, params, bindingOf(tabId, step), signal);
        } catch (e) {
          throw sentBefore(e, sent);
        }
        if (keyAt(step) || pressAt(step)) sent.push(params.type ?? 'text');
        if (r.dialog) {
          result = r;
          break;
        }
      }
      result ??= {};
    } catch (e) {
      failure = e;
    }
    if (witness) {
      const stray = await strayKeys(tabId, await witness());
      if (stray.length) throw strayAnswer(stray);
    }
    if (failure) throw failure;
    return result;
  }, cast);
}

// The move's ack is waited for before the press: a page hung in its
// mousemove handler must not get a press that would land once it runs again
// (docs/page_tools.md); in a background tab it is quick (atFullFrameRate).
// pressCheck (required): armPressCheck's, run before each press and release.
// cast: a fullFrameRate already started (the caller stops it).
export function click(tabId, x, y, { button = 'left', doubleClick = false, modifiers = 0, signal, pressCheck, cast } = {}) {
  const b = BUTTONS[button] ?? 1;
  const release = pressCheck && ((px, py) => pressCheck(px, py, { frameOnly: true }));
  const steps = [[Op.MOUSE, { type: 'mouseMoved', x, y, modifiers }]];
  const clicks = doubleClick ? [1, 2] : [1];
  for (const clickCount of clicks) {
    steps.push([Op.MOUSE, { type: 'mousePressed', x, y, button, buttons: b, clickCount, modifiers }, pressCheck]);
    steps.push([Op.MOUSE, { type: 'mouseReleased', x, y, button, buttons: 0, clickCount, modifiers }, release]);
  }
  return sequence(tabId, steps, signal, cast);
}

export function hover(tabId, x, y, { signal, cast } = {}) {
  return sequence(tabId, [[Op.MOUSE, { type: 'mouseMoved', x, y }]], signal, cast);
}

// A trusted mouse wheel at (x, y): scrolls whatever is under that point.
// wheelCheck (required): press_point.js's, where the wheel lands.
export function mouseWheel(tabId, x, y, deltaX, deltaY, { signal, wheelCheck } = {}) {
  return sequence(tabId, [
    [Op.MOUSE, { type: 'mouseMoved', x, y }],
    [Op.MOUSE, { type: 'mouseWheel', x, y, deltaX, deltaY }, wheelCheck],
  ], signal);
}

// Text into the focused element (bound to the frames holding the focus, asked
// before it goes: as every key of typeKeys and pressChord).
export function insertText(tabId, text, { signal } = {}) {
  return sequence(tabId, [[Op.TEXT, { text }]], signal);
}

// ---- keys ------------------------------------------------------------------

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

// "Control+Shift+A" -> {mods: ['Control','Shift'], def, mac} or {error} (keys.js).
export async function parseChord(spec) {
  return parseChordOn(spec, await isMac());
}

// Every key, down and up, is bound to the focus as it is then (a key's up acts
// too: Space clicks a button on its up).
export async function pressChord(tabId, chord, { signal } = {}) {
  const { mods, def, mac } = chord;
  let modifiers = 0;
  const steps = [];
  for (const m of mods) {
    modifiers |= MOD[m];
    const [code, keyCode] = NAMED[m];
    steps.push([Op.KEY, { type: 'rawKeyDown', key: m, code, windowsVirtualKeyCode: keyCode, modifiers }]);
  }
  if (def.key in MOD) {
    // A lone modifier: its down is the whole press.
    const [code, keyCode] = NAMED[def.key];
    modifiers |= MOD[def.key];
    steps.push([Op.KEY, { type: 'rawKeyDown', key: def.key, code, windowsVirtualKeyCode: keyCode, modifiers }]);
    steps.push([Op.KEY, { type: 'keyUp', key: def.key, code, windowsVirtualKeyCode: keyCode, modifiers: modifiers & ~MOD[def.key] }]);
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
    steps.push([Op.KEY, down]);
    steps.push([Op.KEY, { type: 'keyUp', key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers }]);
  }
  for (const m of [...mods].reverse()) {
    modifiers &= ~MOD[m];
    const [code, keyCode] = NAMED[m];
    steps.push([Op.KEY, { type: 'keyUp', key: m, code, windowsVirtualKeyCode: keyCode, modifiers }]);
  }
  return sequence(tabId, steps, signal);
}

// type {keyEvents}: each character as a trusted key press (keydown, keypress
// and input, keyup — CDP keyDown with text, then keyUp) into the focused
// element, for fields that react to keys; a newline is Enter. Stops at the
// first dialog. Returns {dialog?}.
// Every key is bound to the focus as it is then (the page may move it on any of them).
export function typeKeys(tabId, text, { signal } = {}) {
  const steps = [];
  for (const ch of String(text)) {
    const def = ch === '\n' || ch === '\r' ? keyDef('Enter') : keyDef(ch);
    const base = { key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode };
    steps.push([Op.KEY, { type: 'keyDown', ...base, text: def.text, unmodifiedText: def.text }]);
    steps.push([Op.KEY, { type: 'keyUp', ...base }]);
  }
  return sequence(tabId, steps, signal);
}

// A drag from one point to another with the left button, as a hand does it:
// press, a first move past the drag threshold, then steps to the target.
// With the browser's drag interception on, a page that starts an HTML5 drag
// (draggable, dragstart) hands us its drag data instead of opening the
// system's drag loop (which never ends in a headless or background tab); the
// rest of that drag is sent as drag events. A page that drags by pointer
// events (most sortable and kanban libraries) gets the moves and the release.
// Returns {mode: 'html5'|'pointer', dialog?}.
const DRAG_STEPS = 8;
// At the target a hand lingers before it lets go: a few moves a frame apart.
// Libraries that reorder as the pointer passes ignore moves for a moment
// after each change (SortableJS: 30 ms), so a release right after the last
// step lands before they caught up with where the pointer is.
const LINGER_MOVES = 4;
const LINGER_GAP_MS = 20;
const linger = (to, step) => Array.from({ length: LINGER_MOVES }, (_, i) => [LINGER_GAP_MS, step(to.x + (i % 2), to.y)]).flat();
const DRAG_INTERCEPT_WAIT_MS = 250; // the dragstart follows the first move's ack within a frame

// pressFrom/pressTo (required): the press checks of the source (its press)
// and of the target (the release or drop: its frame, not its node — a
// dragged element may follow the pointer).
export async function dragBetween(tabId, from, to, { signal, pressFrom, pressTo } = {}) {
  const release = pressTo && ((x, y) => pressTo(x, y, { frameOnly: true }));
  let intercepted = null;
  let wake = null;
  let off = () => {};
  const mouse = (type, x, y, extra = {}) => [Op.MOUSE, { type, x, y, button: 'left', buttons: type === 'mouseReleased' ? 0 : 1, ...extra }];
  const path = (start, n) => Array.from({ length: n }, (_, i) => {
    const f = (i + 1) / n;
    return [start.x + (to.x - start.x) * f, start.y + (to.y - start.y) * f];
  });
  try {
    off = await interceptDrags(tabId, (data) => {
      intercepted = data;
      wake?.();
    });
    // Past the threshold (a few px), towards the target.
    const dx = Math.sign(to.x - from.x) * 8 || 0;
    const dy = Math.sign(to.y - from.y) * 8 || (dx ? 0 : 8);
    const start = { x: from.x + dx, y: from.y + dy };
    let r = await sequence(tabId, [
      [Op.MOUSE, { type: 'mouseMoved', x: from.x, y: from.y }],
      [...mouse('mousePressed', from.x, from.y, { clickCount: 1 }), pressFrom],
      mouse('mouseMoved', start.x, start.y),
    ], signal);
    if (r.dialog) return { mode: 'pointer', dialog: r.dialog };
    if (!intercepted) {
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, DRAG_INTERCEPT_WAIT_MS);
      });
    }
    if (intercepted) {
      const steps = [[Op.DRAG, { type: 'dragEnter', x: start.x, y: start.y, data: intercepted }]];
      const over = (x, y) => [Op.DRAG, { type: 'dragOver', x, y, data: intercepted }];
      for (const [x, y] of path(start, DRAG_STEPS)) steps.push(over(x, y));
      steps.push(...linger(to, over), over(to.x, to.y));
      steps.push([Op.DRAG, { type: 'drop', x: to.x, y: to.y, data: intercepted }, release]);
      r = await sequence(tabId, steps, signal);
      return { mode: 'html5', ...r };
    }
    const move = (x, y) => mouse('mouseMoved', x, y);
    const steps = path(start, DRAG_STEPS).map(([x, y]) => move(x, y));
    steps.push(...linger(to, move), move(to.x, to.y));
    steps.push([...mouse('mouseReleased', to.x, to.y, { clickCount: 1 }), release]);
    r = await sequence(tabId, steps, signal);
    return { mode: 'pointer', ...r };
  } finally {
    off();
  }
}
