// What is under the pointer at the moment of a trusted press, asked of the
// browser (docs/policy.md "Threat model": a check holds until the act is
// done). The page sees the pointer arrive (a trusted mousemove) and may slide
// something under it — a frame of a site the policy denies, with its own
// button — between our measurement and the press. So immediately before each
// press and release, CDP's hit test (DOM.getNodeForLocation, followed into
// out-of-process frames) says where that event would land, and the press is
// refused unless it lands in the target's own frame, every frame on the way
// is a site the policy allows for `act`, and, for a press, on the node found
// at the aim or where the page agent says the pointer still reaches the
// target (a hover may draw its inside anew). A release is checked for its
// frames only: the press already went, and a page may put things under the
// held button (a ripple, a dragged element). A wheel turn is checked for its
// frames (wheelCheck). While a press on a target of the top document goes
// out, frames take no pointer at all (shieldFrames). input.js sends no press,
// release or wheel turn without its check.
//
//   const check = await armPressCheck(tabId, loc, { signal });  // the target's landing, taken at its aim
//   const unshield = await shieldFrames(tabId, check);
//   await check(x, y);                          // before a press: throws Denied or ToolError
//   await check(x, y, { frameOnly: true });     // a release: the frames, not the node
//   unshield();

import { cdp, childTargets } from '../../worker/cdp.js';
import { assertUrlAllowed } from '../stack/frame_guard.js';
import { checkpoint, ToolError } from '../stack/errors.js';
import { runAgent } from './targets.js';
import { userSheet } from './user_sheet.js';

const MAX_DEPTH = 8;

// The page's frames in one process, from a session's frame tree: id -> {url, parentId}.
async function frameTree(tabId, sessionId) {
  const { frameTree: root } = await cdp(tabId, 'Page.getFrameTree', {}, { sessionId });
  const frames = new Map();
  const walk = (node, parentId) => {
    frames.set(node.frame.id, { url: node.frame.url + (node.frame.urlFragment ?? ''), parentId });
    for (const child of node.childFrames ?? []) walk(child, node.frame.id);
  };
  walk(root, null);
  return { rootId: root.frame.id, frames };
}

// CDP's hit test at (px, py) of a session's viewport: it takes document
// coordinates, so the scroll is read in the same turn (commands of a session
// run in order) and the test is made again if it was not the scroll assumed
// (the page may scroll on the pointer's arrival). seen: the session's state,
// {scroll, tree} — kept across the checks of one press check.
async function hitTest(tabId, px, py, sessionId, seen) {
  for (let tries = 0; tries < 3; tries++) {
    const { x, y } = seen.scroll;
    const [metrics, hit] = await Promise.all([
      cdp(tabId, 'Page.getLayoutMetrics', {}, { sessionId }),
      cdp(tabId, 'DOM.getNodeForLocation', {
        x: Math.floor(px + x), y: Math.floor(py + y), includeUserAgentShadowDOM: false, ignorePointerEventsNone: false,
      }, { sessionId }).then((found) => ({ found }), (error) => ({ error })),
    ]);
    const now = { x: metrics.cssLayoutViewport?.pageX ?? 0, y: metrics.cssLayoutViewport?.pageY ?? 0 };
    if (now.x !== x || now.y !== y) {
      seen.scroll = now;
      continue;
    }
    if (hit.found) return hit.found;
    if (/No node found/i.test(hit.error?.message)) {
      throw new ToolError('nothing of the page is under the pointer there (outside the page?) — nothing was pressed; take a new snapshot');
    }
    throw hit.error;
  }
  throw new ToolError('the page kept scrolling under the pointer — nothing was pressed; take a new snapshot');
}

// What a press check keeps of a session: the scroll last seen and its frame tree.
function sessionState(states, tabId, sessionId, scroll = { x: 0, y: 0 }) {
  const key = sessionId ?? '';
  if (!states.has(key)) {
    const tree = frameTree(tabId, sessionId);
    tree.catch(() => {}); // awaited where it is used; a session gone meanwhile fails the hit test first
    states.set(key, { scroll, tree });
  }
  return states.get(key);
}

// The frames an event at (x, y) of the top viewport passes into, outermost
// first, each {url, site, sessionId, frameId}, and the node it lands on
// (backendNodeId, in the last frame's session).
async function landing(tabId, x, y, states) {
  const frames = [];
  let sessionId;
  let px = x;
  let py = y;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const seen = sessionState(states, tabId, sessionId);
    const hit = await hitTest(tabId, px, py, sessionId, seen);
    let tree = await seen.tree;
    if (!tree.frames.has(hit.frameId)) tree = await (seen.tree = frameTree(tabId, sessionId));
    // Frames of this process between its root and the node's (same-process iframes).
    const local = [];
    for (let id = hit.frameId; id && tree.frames.has(id); id = tree.frames.get(id).parentId) {
      local.unshift({ url: tree.frames.get(id).url, sessionId, frameId: id });
    }
    if (!local.length) throw new ToolError('the frame under the pointer could not be told — take a new snapshot and try again');
    for (const f of frames.length ? local.slice(1) : local) frames.push(withSite(f, frames.at(-1)));
    // An <iframe> whose document runs in another process: the event goes there.
    const child = await oopifOf(tabId, hit.backendNodeId, sessionId);
    if (!child) return { frames, node: hit.backendNodeId, sessionId, local: { x: px, y: py } };
    // Into the frame's own viewport: from its content box's corner, at the
    // scale its <iframe> is drawn at (border box on screen / its CSS width).
    const { model } = await cdp(tabId, 'DOM.getBoxModel', { backendNodeId: hit.backendNodeId }, { sessionId });
    const [cx, cy] = model.content;
    const scale = model.width > 0 ? Math.hypot(model.border[2] - model.border[0], model.border[3] - model.border[1]) / model.width : 1;
    px = (px - cx) / (scale || 1);
    py = (py - cy) / (scale || 1);
    sessionId = child.sessionId;
    frames.push(withSite({ url: child.targetInfo.url, sessionId, frameId: child.targetInfo.targetId }, frames.at(-1)));
  }
  throw new ToolError('frames nested too deep under the pointer — nothing was pressed');
}

// A frame with its `site`: the URL whose site it is — its own, or, for an
// about:blank or about:srcdoc frame, its parent's (whose origin it has).
function withSite(frame, parent) {
  const inherits = /^about:/i.test(frame.url) && parent;
  return { ...frame, site: inherits ? parent.site : frame.url };
}

// The child session of the out-of-process frame `backendNodeId` owns, or null.
async function oopifOf(tabId, backendNodeId, sessionId) {
  const children = childTargets(tabId).filter((c) => c.targetInfo?.type === 'iframe');
  if (!children.length) return null;
  const { node } = await cdp(tabId, 'DOM.describeNode', { backendNodeId }, { sessionId });
  if (!node?.frameId) return null;
  return children.find((c) => c.targetInfo.targetId === node.frameId) ?? null;
}

// Another node than at the aim, in the target's frame: whether the pointer
// there still reaches the target (a hover may have drawn its inside anew),
// asked of the page agent in our isolated world, where the frame's own
// viewport point is known: the top's, or the last out-of-process frame's.
async function reachesAt(tabId, loc, now, signal) {
  // The last session's viewport is the agent's: the top's for a target the
  // top frame's agent found, an out-of-process frame's for one found there.
  if ((loc.frameId === 0) !== (now.sessionId === undefined)) return false;
  const point = now.local;
  try {
    const r = await runAgent(tabId, loc.frameId, 'reachesAt', { ...loc.args, x: point.x, y: point.y }, { timeoutMs: 3000, signal });
    return r.reaches === true;
  } catch {
    return false; // gone or busy: not known to reach it
  }
}

const sameFrames = (a, b) => a.length === b.length && a.every((f, i) => f.frameId === b[i].frameId && f.url === b[i].url);

// The target's frame, as the extension names it, by URL and depth.
async function targetFrame(tabId, frameId) {
  const chain = [];
  for (let id = frameId; id >= 0 && chain.length <= MAX_DEPTH;) {
    const f = await chrome.webNavigation.getFrame({ tabId, frameId: id }).catch(() => null);
    if (!f) throw new ToolError('that frame is gone — take a new snapshot', { stale: true });
    chain.unshift(f.url);
    id = f.parentFrameId;
  }
  return chain;
}

// Whether the frames a press passes into end in the target's frame (`want`,
// its URLs outermost first; the frames on the way are the policy's to
// decide), or in a frame of the same origin inside it (a
// frame's page agent reaches into its same-origin frames: e2 of the top
// frame may be a button of a same-origin iframe).
function landsIn(frames, want) {
  if (frames.length < want.length || frames[want.length - 1].url !== want.at(-1)) return false;
  const origin = originOf(want.at(-1));
  return frames.slice(want.length).every((f) => origin !== null && originOf(f.site) === origin);
}

function originOf(url) {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

// Decides every frame of another site on the way (the host, for act).
async function assertFramesAllowed(tabId, frames) {
  for (const f of frames) await assertUrlAllowed(tabId, f.site);
}

// Takes where loc's aim lands now (loc was just located: its aim is on the
// target, as the page agent saw it) and returns the check for each press.
export async function armPressCheck(tabId, loc, { signal } = {}) {
  // The top session's scroll as the page agent measured it: most often right.
  const states = new Map();
  sessionState(states, tabId, undefined, loc.frameId === 0 && loc.viewport ? { x: loc.viewport.x, y: loc.viewport.y } : undefined);
  const [want, aim] = await Promise.all([targetFrame(tabId, loc.frameId), landing(tabId, loc.x, loc.y, states)]);
  await assertFramesAllowed(tabId, aim.frames);
  if (!landsIn(aim.frames, want)) {
    throw new ToolError(`${loc.desc} is covered by a frame of ${siteOf(aim.frames.at(-1).site)} — nothing was pressed; take a new snapshot`);
  }
  const check = async (x, y, { frameOnly = false } = {}) => {
    checkpoint(signal, 'the press');
    const now = await landing(tabId, x, y, states);
    await assertFramesAllowed(tabId, now.frames);
    if (!sameFrames(now.frames, aim.frames)) {
      throw new ToolError(`a frame of ${siteOf(now.frames.at(-1).site)} came under the pointer over ${loc.desc} at the moment ` +
        'of the press (the page moved it there) — nothing was pressed; take a new snapshot');
    }
    // The frames it lands in: the input broker decides them again as it sends.
    if (frameOnly || now.node === aim.node || await reachesAt(tabId, loc, now, signal)) return now.frames.map((f) => f.site);
    throw new ToolError(`something else came under the pointer over ${loc.desc} at the moment of the press ` +
      '(the page moved, or covered it) — nothing was pressed; take a new snapshot');
  };
  // The target is in the top document itself (in no frame): shieldFrames applies.
  check.inTopDocument = aim.frames.length === 1;
  return check;
}

// The browser routes a press into an out-of-process frame by the hit-test
// data of the last frame it painted, which the DOM need not show any more: a
// page can paint a frame of another site over the target and take it away in
// the DOM before each check. So while a press on a target of the top
// document itself (armPressCheck's inTopDocument: in no frame) goes out, no
// frame of that document takes the pointer at all: a
// user stylesheet (which no page style overrides, !important included) makes
// every frame owner pass the pointer through. Returns the undo (idempotent).
const POINTER_SHIELD = 'iframe, frame, object, embed, fencedframe { pointer-events: none !important; }';

export async function shieldFrames(tabId, pressCheck) {
  if (!pressCheck.inTopDocument || !childTargets(tabId).some((c) => c.targetInfo?.type === 'iframe')) return () => {};
  return userSheet(tabId, POINTER_SHIELD);
}

// For a mouse wheel (scroll): no target node, and the wheel goes on to
// whatever scrolls under the point — only where it lands is decided: every
// frame on the way a site the policy allows for act.
export function wheelCheck(tabId, { signal } = {}) {
  const states = new Map();
  return async (x, y) => {
    checkpoint(signal, 'the mouse wheel');
    const now = await landing(tabId, x, y, states);
    await assertFramesAllowed(tabId, now.frames);
    return now.frames.map((f) => f.site);
  };
}

function siteOf(url) {
  try {
    const u = new URL(url);
    return u.host ? `${u.protocol}//${u.host}` : u.protocol;
  } catch {
    return 'another page';
  }
}
