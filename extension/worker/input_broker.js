// The one input broker (docs/policy.md "Threat model"): the only module that
// sends an effectful CDP command — one a page takes as the person's own doing:
// trusted input (Input.*), the answer to a JavaScript dialog, files into a file
// input. cdp.js refuses these methods to everyone else (reserveMethods), and
// tests/js/input_broker_static.test.mjs fails the build when their names
// appear in any other module.
//
// Every send names what it is bound to — the frames the command affects at
// that instant — and the broker decides each of those frames' sites for `act`
// with the host (policy.decide, for the call that sends) before it sends:
//
//   press    a press, release, wheel turn or drop: the frames the browser's hit
//            test says it lands in (press_point.js), outermost first
//   focus    a key or text: the frames holding the focus (frame_guard.js
//            focusedFrames), asked again before every key
//   dialog   a dialog's answer: the frame that opened it (its URL from
//            Page.javascriptDialogOpening); only an accept is decided — a
//            dismiss is the browser's own answer, the one leaving the page or
//            closing the tab gives (docs/page_tools.md handle_dialog)
//   element  files into an input: the input's frame
//   pointer  a move or a drag passing over: presses nothing, decided for no
//            frame (docs/policy.md "Not defended": what a hover shows)
//   tab      a setting of the tab's own session (drag interception)
//
// The call is the page tool call that acts: an acting call (pageTool's acts)
// opens one for its tab (openCall); a tool that is not an acting one passes
// its call with the send ({call: {requestId, policyUrl}}). A send with
// neither is refused, whatever its tool: no effectful command goes out
// undecided.
//
// Raw keys (keyWitness): a page can hand the focus to a frame of another site
// between the check and the key (a frame's window.focus(), which no style
// stops: docs/policy.md). While keys go, every frame of another site than the
// call's counts the trusted keys and text it gets, in our isolated world; after
// them the broker reads the counts and a key that reached a frame whose site
// the policy does not allow to act is told, never passed over.

import { reserveMethods, onCdpEvent } from './cdp.js';
import { requestHost } from './native_port.js';
import { HostRequest } from './protocol.js';
import { siteKey } from './site_key.js';

// Methods a page takes as the person's doing. Input.* as a whole is the
// broker's too (cdp.js refuses the prefix): a method added to CDP later is
// not sent by anyone until it is given a binding here.
export const EFFECTFUL_METHODS = Object.freeze([
  'Input.dispatchMouseEvent', 'Input.dispatchKeyEvent', 'Input.insertText', 'Input.imeSetComposition',
  'Input.dispatchDragEvent', 'Input.setInterceptDrags', 'Input.cancelDragging', 'Input.dispatchTouchEvent',
  'Input.emulateTouchFromMouseEvent', 'Input.synthesizePinchGesture', 'Input.synthesizeScrollGesture',
  'Input.synthesizeTapGesture', 'Input.setIgnoreInputEvents',
  'Page.handleJavaScriptDialog', 'Page.handleFileChooser', 'DOM.setFileInputFiles',
]);
export const EFFECTFUL_PREFIXES = Object.freeze(['Input.']);

const send = reserveMethods(EFFECTFUL_METHODS, EFFECTFUL_PREFIXES);

// What each method may be bound to (by its params): a key cannot be sent bound
// to the pointer, nor a press to the tab. A method without an entry is not sent.
const BINDINGS = Object.freeze({
  'Input.dispatchMouseEvent': (p) => (p.type === 'mouseMoved' ? 'pointer' : 'press'),
  'Input.dispatchDragEvent': (p) => (p.type === 'drop' ? 'press' : 'pointer'),
  'Input.dispatchKeyEvent': () => 'focus',
  'Input.insertText': () => 'focus',
  'Input.setInterceptDrags': () => 'tab',
  'Page.handleJavaScriptDialog': (p) => (p.accept ? 'dialog' : 'dismiss'),
  'DOM.setFileInputFiles': () => 'element',
});

// The input events tools send, by name (input.js builds its steps with these).
export const Op = Object.freeze({ MOUSE: 'Input.dispatchMouseEvent', KEY: 'Input.dispatchKeyEvent', TEXT: 'Input.insertText', DRAG: 'Input.dispatchDragEvent' });

// How a send is bound: {kind, frames: () => [url]} (frames: the URLs whose sites decide).
export const Bind = Object.freeze({
  press: (frames) => ({ kind: 'press', frames }),
  focus: (frames) => ({ kind: 'focus', frames }),
  pointer: () => ({ kind: 'pointer', frames: () => [] }),
  tab: () => ({ kind: 'tab', frames: () => [] }),
  element: (url) => ({ kind: 'element', frames: () => [url] }),
  dialog: (dialog) => ({ kind: 'dialog', dialog, frames: () => [dialog.url] }),
});

// Thrown with the host's denial as the tool's answer (page_tool.js answers
// result as is). Not a ToolError: tools that turn a ToolError into a line of
// their own account must not water a denial down.
export class Denied extends Error {
  constructor(result) {
    super(result?.content?.[0]?.text ?? 'denied');
    this.name = 'Denied';
    this.result = result;
  }
}

const errorResult = (text) => ({ content: [{ type: 'text', text }], isError: true });

const calls = new Map(); // tabId -> Set of {requestId, policyUrl}: the acting calls on the tab

// An acting call on the tab (pageTool, frame_guard.js guardFrames): effectful
// sends on the tab are decided for it until release().
export function openCall(tabId, policyUrl, requestId) {
  const call = { requestId, policyUrl };
  let set = calls.get(tabId);
  if (!set) calls.set(tabId, set = new Set());
  set.add(call);
  return () => {
    set.delete(call);
    if (!set.size && calls.get(tabId) === set) calls.delete(tabId);
  };
}

// The calls a send on the tab is decided for: the one it names, else every
// acting call on the tab (two sessions may act at once: each must allow it).
function callsFor(tabId, call, method) {
  if (call) return [call];
  const set = calls.get(tabId);
  if (!set?.size) throw new Error(`${method} outside a call that acts: not sent (a tool sends input only within its call)`);
  return [...set];
}

// One frame's site for one call: same site as the call's page, else the host decides.
async function decideFor(call, url, what) {
  if (typeof url !== 'string' || !url) {
    throw new Denied(errorResult(`${what} is in a frame whose address could not be told; nothing was done`));
  }
  if (typeof call.policyUrl === 'string' && siteKey(url) === siteKey(call.policyUrl)) return;
  let verdict;
  try {
    verdict = await requestHost(HostRequest.POLICY_DECIDE, { call: call.requestId, url, capability: 'act' });
  } catch (e) {
    verdict = { allowed: false, result: errorResult(`the host could not decide the frame's site (${e.message})`) };
  }
  if (verdict?.allowed === true) return;
  const result = structuredClone(verdict?.result ?? errorResult('denied'));
  const first = result.content?.find((c) => c.type === 'text');
  if (first) first.text = `${what} is in a frame of ${siteKey(url)}: ${first.text}; nothing was done`;
  throw new Denied({ ...result, isError: true });
}

const WHAT = { press: 'the target', focus: 'the target', element: 'the target', dialog: 'the dialog' };

// The frame URLs' sites for `act`, for the given call or the tab's acting calls.
export async function decideFrames(tabId, urls, { call, what = 'the target', method = 'input' } = {}) {
  const deciding = callsFor(tabId, call, method);
  for (const url of urls) for (const c of deciding) await decideFor(c, url, what);
}

// Sends one effectful command: its binding's frames are decided first (each a
// Denied when the policy does not allow it), then it goes. Returns CDP's result.
export async function effect(tabId, method, params, { bind, call, sessionId, timeoutMs } = {}) {
  const kindOf = BINDINGS[method];
  if (!kindOf) throw new Error(`${method} has no binding in the input broker: not sent`);
  const kind = kindOf(params ?? {});
  if (kind === 'dismiss') {
    // The browser's own answer: still only within a call.
    callsFor(tabId, call, method);
  } else {
    if (!bind || bind.kind !== kind) throw new Error(`${method} (${params?.type ?? ''}) must be bound to ${kind}, not ${bind?.kind ?? 'nothing'}: not sent`);
    const deciding = callsFor(tabId, call, method);
    const urls = await bind.frames();
    for (const url of urls) for (const c of deciding) await decideFor(c, url, WHAT[kind] ?? 'the target');
  }
  return send(tabId, method, params, { sessionId, timeoutMs });
}

// ---- raw keys with the page held -------------------------------------------------

// A key goes wherever the browser's focus is when the browser routes it, and
// a page can move the focus into a frame of another site (its window.focus(),
// which no style stops) between our check and the key. So on a page with
// frames of other sites a raw key goes while the top document's thread is
// held: our isolated world there says where the focus is (in the top
// document itself, or passed to a frame) and then runs on — the page's own
// scripts, timers and messages wait — until the key is in its input queue
// (navigator.scheduling.isInputPending) or HOLD_MAX_MS passed. The key is sent
// only when the held page has the focus itself; it is bound to the top
// document then. Frames in other processes are not held: the key witness
// tells a key that went astray all the same.
const HOLD_MAX_MS = 250;
const HOLD_SAID_MS = 2000;

// In the top document's isolated world (chrome.scripting: no closures).
function holdPage(token, maxMs) {
  const a = document.activeElement;
  const passes = !!a && ['iframe', 'frame', 'object', 'embed', 'fencedframe'].includes(a.localName);
  const pending = navigator.scheduling?.isInputPending?.bind(navigator.scheduling);
  chrome.runtime.sendMessage({ type: 'tabbridge.hold', token, inTop: !passes, watches: !!pending }).catch(() => {});
  const until = performance.now() + maxMs;
  while (performance.now() < until) {
    if (pending?.({ includeContinuous: false })) return { input: true };
  }
  return { input: false };
}

let holds = 0;

// One hold of the top document: resolves {said, held} — said: its report
// ({inTop}) or null (it could not be held), held: resolves when it lets go.
function holdTop(tabId) {
  const token = `h${++holds}`;
  let onMessage;
  let unsaid;
  const said = new Promise((resolve) => {
    unsaid = () => resolve(null);
    onMessage = (msg, sender) => {
      if (msg?.type === 'tabbridge.hold' && msg.token === token && sender.id === chrome.runtime.id &&
        sender.tab?.id === tabId && sender.frameId === 0) resolve(msg);
    };
    chrome.runtime.onMessage.addListener(onMessage);
    setTimeout(() => resolve(null), HOLD_SAID_MS);
  });
  const held = chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] }, world: 'ISOLATED', func: holdPage, args: [token, HOLD_MAX_MS],
  }).then(([r]) => r?.result ?? { input: false }, () => {
    unsaid(); // the page cannot be held: there is nothing to wait for
    return { input: false };
  });
  return { said: said.finally(() => chrome.runtime.onMessage.removeListener(onMessage)), held };
}

// A focus change the page made just before the hold is still on its way to
// the browser (which routes the key): this long for it to arrive.
const HOLD_SETTLE_MS = 10;
const HOLD_TRIES = 4;

// Sends a raw key (Op.KEY) with the top document held (above). The focus in
// a frame: that frame's site is decided (a Denied for one the policy does not
// allow) and an allowed frame gets the key unheld; no focus the check can
// place (the page moving it to and fro) is tried again, then refused.
export async function heldKey(tabId, method, params, { bind, call } = {}) {
  if (method !== Op.KEY || bind?.kind !== 'focus') throw new Error(`${method} is not a key bound to the focus: not held`);
  const deciding = callsFor(tabId, call, method);
  for (let tries = 0; tries < HOLD_TRIES; tries++) {
    const { said, held } = holdTop(tabId);
    const msg = await said;
    if (msg === null) {
      // Not held (a page of the browser's own): decided and sent as it is.
      await held;
      return effect(tabId, method, params, { bind, call });
    }
    if (msg.inTop) {
      await new Promise((resolve) => setTimeout(resolve, HOLD_SETTLE_MS));
      const top = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
      for (const c of deciding) await decideFor(c, top?.url, 'the target');
      const ack = send(tabId, method, params);
      ack.catch(() => {}); // awaited by the caller; a dialog may take its place
      await held;
      return ack;
    }
    await held;
    const urls = await bind.frames();
    if (urls.length) {
      for (const url of urls) for (const c of deciding) await decideFor(c, url, 'the target');
      return send(tabId, method, params);
    }
  }
  throw new Denied(errorResult(`the page kept moving the focus between its document and its frames as the key was to go (${params?.type ?? 'key'}); it was not sent`));
}

// ---- a dialog's answer --------------------------------------------------------

// Answers the dialog `dialog` ({url, sessionId} of Page.javascriptDialogOpening,
// dialogs.js) in its own session: an accept bound to the frame that opened it.
export function answerDialog(tabId, dialog, { accept, promptText }, { call } = {}) {
  const params = { accept: !!accept };
  if (accept && promptText !== undefined) params.promptText = promptText;
  return effect(tabId, 'Page.handleJavaScriptDialog', params, { sessionId: dialog.sessionId, bind: Bind.dialog(dialog), call });
}

// ---- drag interception ------------------------------------------------------

// The browser hands a page's HTML5 drag to us instead of starting the
// system's drag loop: onData(data) with the drag's data. Returns the undo.
export async function interceptDrags(tabId, onData) {
  const off = onCdpEvent('Input.dragIntercepted', (tab, params, sessionId) => {
    if (tab === tabId && !sessionId) onData(params.data);
  });
  try {
    await effect(tabId, 'Input.setInterceptDrags', { enabled: true }, { bind: Bind.tab() });
  } catch (e) {
    off();
    throw e;
  }
  return () => {
    off();
    effect(tabId, 'Input.setInterceptDrags', { enabled: false }, { bind: Bind.tab() }).catch(() => {});
  };
}

// ---- the key witness ----------------------------------------------------------

// In every frame, our isolated world: trusted keys and text that arrive there.
function armWitness(token) {
  const w = (globalThis.__tabbridgeKeyWitness ??= {});
  if (w[token]) return;
  const counts = { n: 0 };
  const on = (e) => { if (e.isTrusted) counts.n++; };
  const types = ['keydown', 'keyup', 'keypress', 'beforeinput'];
  for (const t of types) window.addEventListener(t, on, true);
  w[token] = { counts, off: () => { for (const t of types) window.removeEventListener(t, on, true); } };
}

function readWitness(token) {
  const w = globalThis.__tabbridgeKeyWitness?.[token];
  if (!w) return { n: 0, url: location.href };
  w.off();
  delete globalThis.__tabbridgeKeyWitness[token];
  return { n: w.counts.n, url: location.href };
}

let witnesses = 0;

// Arms the witness in every frame of the tab; returns read(): the frames of
// other sites than the calls' that got keys, [{url, n}] (decided by the
// caller). A page the witness cannot go into (a browser page) is read as none.
export async function keyWitness(tabId) {
  const token = `w${++witnesses}`;
  const run = (func) => chrome.scripting.executeScript({ target: { tabId, allFrames: true }, world: 'ISOLATED', func, args: [token] });
  const armed = await run(armWitness).then(() => true, () => false);
  return async () => {
    if (!armed) return [];
    const results = await run(readWitness).catch(() => []);
    return results.filter((r) => r.frameId !== 0 && r.result?.n > 0).map((r) => r.result);
  };
}

// After raw keys: the frames of sites the policy does not allow to act that got
// keys anyway, each [{url, n, denial}] (empty: every key went where it was decided).
export async function strayKeys(tabId, got, { call } = {}) {
  const stray = [];
  for (const { url, n } of got) {
    try {
      await decideFrames(tabId, [url], { call, what: 'a key' });
    } catch (e) {
      if (!(e instanceof Denied)) throw e;
      stray.push({ url, n, site: siteKey(url) });
    }
  }
  return stray;
}
