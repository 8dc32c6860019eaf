// Running the page agent in a frame, and turning a ref or selector into an
// element and a point in the top-level viewport (CSS px), ready for Input.*.
//
// A ref names its frame (f2e7, or e7 for the top frame and the same-origin
// iframes the top frame's snapshot walked into). Cross-origin (out-of-process)
// frames are reached by frameId; their point is mapped up frame by frame: each
// parent finds the <iframe> whose chrome.runtime.getFrameId() is the child and
// adds its content-box offset (and scale), scrolling it into view if needed.

import { assertFrameAllowed } from '../stack/frame_guard.js';
import { Deadlines } from '../../worker/protocol.js';
import { checkpoint, chromeErrorKind, HUNG_ADVICE, tabGone, ToolError } from '../stack/errors.js';
import { sleep, withTimeout } from '../../worker/time.js';
import { executeAgent } from '../stack/agent_runner.js';
import { framePrefix, nextRef, parseRef } from './refs.js';
import { attachStalled, childTargets, clearStalled } from '../../worker/cdp.js';
import { barSettled } from '../../worker/debugger_bar.js';

const AGENT_TIMEOUT_MS = Deadlines.PAGE_SCRIPT_MS;

function scriptingError(tabId, e, frameId) {
  const m = String(e?.message ?? e);
  switch (chromeErrorKind(e)) {
    case 'tabGone':
      return tabGone(tabId);
    case 'frameGone':
      return new ToolError('that frame is gone — take a new snapshot', { stale: true });
    case 'errorPage':
      return new ToolError('the tab shows a browser error page — navigate somewhere else');
    case 'notScriptable':
      return new ToolError(`the browser does not let extensions into this page (${m}) — navigate to an http(s) page`);
    case 'timeout':
      if (attachStalled(tabId)) {
        return new ToolError('the page is not responding: a JavaScript dialog that opened before tabbridge attached is probably blocking it (handle_dialog cannot see those) — ask the user to close it, or reload the tab');
      }
      return new ToolError(`the page${frameId ? ` (frame ${frameId})` : ''} did not answer in time — it is busy (a script stuck in a loop?) or blocked by a dialog: call handle_dialog if one is open, else ${HUNG_ADVICE}`);
    default:
      return new ToolError(`page script failed: ${m}`);
  }
}

// Runs the page agent's op (page/agent/dispatch.js lists them) in frames (an
// array of frameIds, or 'all'), installing it where the document has none
// (stack/agent_runner.js); returns [{frameId, result, read}] (read: the
// {documentId, url} the frame answered from, stack/reads.js). startAt (the tab's next
// ref number) goes along, for the registry of a document that has none yet.
// A script that reaches a hung page after timeoutMs does nothing there (notAfter).
export async function runAgentFrames(tabId, frameIds, op, args = {}, { timeoutMs = AGENT_TIMEOUT_MS, signal } = {}) {
  checkpoint(signal, `the page step "${op}"`);
  const startAt = await nextRef(tabId);
  if (attachStalled(tabId)) timeoutMs = Math.min(timeoutMs, 3000);
  try {
    const results = await withTimeout(executeAgent(tabId, frameIds, op, { startAt, ...args, notAfter: Date.now() + timeoutMs }), timeoutMs);
    clearStalled(tabId);
    return results.map((r) => ({ frameId: r.frameId, result: r.result, read: r.read }));
  } catch (e) {
    throw scriptingError(tabId, e, Array.isArray(frameIds) && frameIds.length === 1 ? frameIds[0] : undefined);
  }
}

// One frame; a result with .error becomes a ToolError.
export async function runAgent(tabId, frameId, op, args = {}, opts = {}) {
  const [r] = await runAgentFrames(tabId, [frameId], op, args, opts);
  const result = r?.result;
  if (result === undefined || result === null) throw new ToolError('page script returned nothing (the page may have navigated) — take a new snapshot');
  if (result.error) throw new ToolError(result.error, { stale: !!result.stale, desc: result.desc });
  return result;
}

// The one check of how a tool names an element: exactly one of ref or
// selector (every tool that targets an element comes through targetOf; the
// host's schema check cannot say "one of"). Throws ToolError.
export function checkTarget({ ref, selector } = {}) {
  const given = (v) => v !== undefined && v !== null && v !== '';
  if (given(ref) && given(selector)) throw new ToolError('pass one of ref or selector, not both');
  if (!given(ref) && !given(selector)) throw new ToolError('give a ref (from snapshot) or a CSS selector');
}

// {ref|selector} -> {frameId, args} for the agent. picked: an element of the
// top document our content scripts picked (a button or result-list tool's,
// page/picks.js), aimed at by that token: never the model's to give.
export async function targetOf(tabId, { ref, selector, picked } = {}) {
  if (typeof picked === 'string') return { frameId: 0, args: { picked } };
  checkTarget({ ref, selector });
  if (ref !== undefined && ref !== null && ref !== '') {
    const parsed = await parseRef(tabId, ref);
    if (!parsed) throw new ToolError(`"${ref}" is not a ref; refs look like e12 or f1e3 (from snapshot)`);
    if (parsed.frameId === null) throw new ToolError(`stale ref ${ref}: that frame is gone — take a new snapshot`, { stale: true });
    await assertFrameAllowed(tabId, parsed.frameId); // an acting call's target in a frame of another site: the policy decides
    return { frameId: parsed.frameId, args: { ref: String(ref), localRef: parsed.local } };
  }
  if (typeof selector === 'string' && selector.trim()) return { frameId: 0, args: { selector } };
  throw new ToolError('give a ref (from snapshot) or a CSS selector');
}

// Maps a rect in frameId's viewport to the top-level viewport, one
// cross-origin frame boundary at a time: the parent listens, the child
// announces itself (postMessage token), the parent maps the rect through the
// <iframe> the token came from.
async function mapToTop(tabId, frameId, rect, signal) {
  let child = frameId;
  let r = rect;
  let scrolled = false;
  for (let depth = 0; child !== 0 && depth < 20; depth++) {
    let info;
    try {
      info = await chrome.webNavigation.getFrame({ tabId, frameId: child });
    } catch {
      info = null;
    }
    if (!info) throw new ToolError('that frame is gone — take a new snapshot', { stale: true });
    const parent = info.parentFrameId;
    if (parent < 0) break;
    await runAgent(tabId, parent, 'listen', {}, { signal });
    const ann = await runAgent(tabId, child, 'announce', {}, { signal });
    if (!ann.token) throw new ToolError('could not place that frame in the page — take a new snapshot');
    const fr = await runAgent(tabId, parent, 'frameRect', { token: ann.token, rect: r }, { signal });
    r = fr.rect;
    scrolled ||= fr.scrolled;
    child = parent;
    // frameRect went on up through the parent's same-origin ancestors.
    for (let i = 0; i < fr.up; i++) {
      const up = await chrome.webNavigation.getFrame({ tabId, frameId: child }).catch(() => null);
      if (!up || up.parentFrameId < 0) break;
      child = up.parentFrameId;
    }
  }
  return { rect: r, scrolled };
}

// How long a pointer action waits for its target to hold still (two
// measurements STEADY_GAP_MS apart agree: box, point and viewport) and for
// something in front of it to go away (a closing modal's fade), before it
// answers that it moves or what covers it.
const STEADY_MS = 2_000;
const STEADY_GAP_MS = 16; // about a frame: an animation moves it in between
const COVER_MS = 600;

const sameSpot = (a, b) => ['x', 'y', 'width', 'height'].every((k) => Math.abs(a.rect[k] - b.rect[k]) < 0.5) &&
  Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 &&
  ['width', 'height', 'x', 'y'].every((k) => a.viewport?.[k] === b.viewport?.[k]) && a.cover === b.cover;

// prepare (page/agent/geometry.js) until two measurements agree and nothing
// covers the element, or the time is up (an error that says which).
async function steady(tabId, t, first, { scroll, watch, signal }) {
  const start = Date.now();
  let prev = first;
  for (;;) {
    await sleep(STEADY_GAP_MS);
    checkpoint(signal, 'waiting for the element to hold still');
    // scroll: back into view if the viewport changed under it (prepare scrolls only then).
    const cur = await runAgent(tabId, t.frameId, 'prepare', { ...t.args, scroll, watch }, { signal });
    const waited = Date.now() - start;
    if (sameSpot(prev, cur)) {
      if (!cur.cover) return cur;
      if (waited >= COVER_MS) {
        throw new ToolError(cur.passThrough
          ? `${cur.desc} takes no pointer (CSS ${cur.passThrough}): a click there goes to ${cur.cover} — act on that, or take a new snapshot`
          : `${cur.desc} is covered by ${cur.cover}, which would get the pointer — close or dismiss it first (take a snapshot to see it), or scroll`);
      }
    } else if (waited >= STEADY_MS) {
      throw new ToolError(`${cur.desc} kept moving for ${Math.round(waited / 1000)} s (an animation, or a page still laying out) — ` +
        'wait_for the page to settle, then try again');
    }
    prev = cur;
  }
}

// Scrolls the target into view and answers where to point the mouse:
// {frameId, args, desc, x, y, rect, state, note} in top-level CSS px.
// hitTest (pointer actions): wait for the debugger bar to arrive (an attach
// that brings it shrinks the viewport, debugger_bar.js), then for a box that
// holds still, and aim at a point of it the pointer reaches (page/agent/pointer.js);
// the last measurement arms the watch of what the page sees of the input
// that follows (assertReached, withEffects' reach). A target that is shown,
// uncovered, not scrolled to and not moving by the first measurement (no
// animation on it or around it, the document loaded: geometry.js mayMove)
// is located in that one call; any other is measured again a frame apart
// until it holds still (steady).
export async function locate(tabId, target, { scroll = true, hitTest = true, signal } = {}) {
  const t = await targetOf(tabId, target);
  if (hitTest) await barSettled(tabId, signal);
  let res = await runAgent(tabId, t.frameId, 'prepare', { ...t.args, scroll, hitTest, watch: hitTest }, { signal });
  if (hitTest && (res.cover || res.moving || res.scrolled)) res = await steady(tabId, t, res, { scroll, watch: true, signal });
  let rect = res.rect;
  let scrolled = res.scrolled;
  if (t.frameId !== 0) {
    const m = await mapToTop(tabId, t.frameId, rect, signal);
    rect = m.rect;
    scrolled ||= m.scrolled;
  }
  // Input to out-of-process frames is routed by the compositor's hit-test
  // data: after a scroll, let a frame or two through before pointing there.
  if (scrolled || t.frameId !== 0) await runAgent(tabId, 0, 'settle', {}, { timeoutMs: 2000, signal }).catch(() => {});
  checkpoint(signal, 'pointing at the element');
  const x = rect.x + rect.width * res.aim.fx;
  const y = rect.y + rect.height * res.aim.fy;
  return { ...res, frameId: t.frameId, args: t.args, rect, x, y };
}

// A mouse move or wheel turn reaches the page at its next frame, after the
// browser's acknowledgement: how long to wait for the first one (a
// background tab at full frame rate takes one or two frames).
export const SEEN_WAIT_MS = 1_000;

// What the page saw of the input since locate armed the watch:
// throws ToolError when events reached the page but none reached the
// target (the pointer landed elsewhere: the page moved, something covered it).
// kinds: the event types that count as reaching it (a click: the press or
// the click). A document that is gone (the input navigated) or did not
// answer tells nothing: no error.
// around: an event on an element around the target (its scroller) counts too.
export async function assertReached(tabId, loc, kinds, what, signal, { around = false } = {}) {
  let r;
  try {
    r = await runAgent(tabId, loc.frameId, 'seen', { kinds, waitMs: SEEN_WAIT_MS }, { timeoutMs: SEEN_WAIT_MS + 2000, signal });
  } catch {
    return; // navigated away, or busy: the effects say what happened
  }
  judgeReached(r, loc, kinds, what, { around });
}

// The verdict on what the page saw (the agent's `seen`, alone or in the
// effects read `after`): throws the ToolError of assertReached.
export function judgeReached(r, loc, kinds, what, { around = false } = {}) {
  if (!r || r.none || r.gone) return;
  const mine = r.events.filter((e) => kinds.includes(e.type));
  if (mine.some((e) => e.reached || (around && e.around))) return;
  const landed = mine[0]?.on ?? r.events.find((e) => !e.reached)?.on;
  throw new ToolError(landed
    ? `the ${what} did not reach ${loc.desc}: it landed on ${landed} (the page moved, or something came in front, after it was measured) — take a new snapshot before trying again`
    : `the ${what} did not reach ${loc.desc}: the page saw none of it — take a new snapshot before trying again`);
}

// True when the tab has out-of-process iframes (their input routing needs
// the hit-test check in pointAt).
const hasOopif = (tabId) => childTargets(tabId).some((t) => t.targetInfo?.type === 'iframe');

// Moves the mouse onto loc and makes sure the move reached loc's element
// (retrying, a pixel apart, while the compositor catches up with a scroll).
// move(x, y) dispatches the mouseMoved. Returns {x, y, dialog?}; throws
// ToolError when no move was seen to reach it.
export async function pointAt(tabId, loc, move, { signal } = {}) {
  if (!hasOopif(tabId)) return { x: loc.x, y: loc.y };
  const check = (extra) => runAgent(tabId, loc.frameId, 'hoverCheck', { ...loc.args, ...extra }, { timeoutMs: 3000, signal });
  const jitter = [[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, -1], [2, 0], [0, 2], [-2, 0]];
  const w = Math.max(0, loc.rect.width / 2 - 1);
  const h = Math.max(0, loc.rect.height / 2 - 1);
  for (const [dx, dy] of jitter) {
    const x = loc.x + Math.max(-w, Math.min(w, dx));
    const y = loc.y + Math.max(-h, Math.min(h, dy));
    await check({ arm: true });
    const r = await move(x, y);
    if (r?.dialog) return { x, y, dialog: r.dialog };
    const { hit } = await check({ waitMs: 80 });
    if (hit) return { x, y };
    await sleep(30);
  }
  // Never a press on a point the pointer was not seen to reach: the page may
  // have put something else there (a frame of another site) on purpose.
  throw new ToolError(`the pointer could not be confirmed on ${loc.desc} (something else is under it, or frames are still settling) — ` +
    'nothing was pressed; take a new snapshot and try again');
}

// Runs op on the target element in its frame.
export async function onTarget(tabId, target, op, extra = {}, { signal } = {}) {
  const t = await targetOf(tabId, target);
  const res = await runAgent(tabId, t.frameId, op, { ...t.args, ...extra }, { signal });
  return { ...res, frameId: t.frameId, args: t.args };
}

// For other tools that take {ref|selector} (download_file): what the element is
// and the link/source URL it carries. Throws ToolError (stale ref, no match).
export async function targetInfo(tabId, target) {
  const { frameId, args: _args, ...info } = await onTarget(tabId, target, 'info');
  return { frameId, ...info };
}

export { framePrefix, nextRef };
