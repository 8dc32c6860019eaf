// What is under the pointer at the moment of a trusted press, asked of the
// browser (docs/policy.md "Threat model": a check holds until the act is
// done). The page sees the pointer arrive (a trusted mousemove) and may slide
// something under it — a frame of a site the policy denies, with its own
// button — between our measurement and the press. So immediately before each
// press and release, CDP's hit test (DOM.getNodeForLocation, followed into
// out-of-process frames) says where that event would land, and the press is
// refused unless it lands in the target's own frame, every frame on the way
// is a site the policy allows for `act`, and (for a click) on the target or
// inside it. input.js sends no press without such a check.
//
//   const check = await armPressCheck(tabId, loc, { signal });  // the target's landing, taken at its aim
//   await check(x, y);            // before a press: throws Denied or ToolError
//   await check(x, y, { frameOnly: true });   // a drag's release: the frame, not the node

import { cdp, childTargets } from '../../worker/cdp.js';
import { assertUrlAllowed } from '../stack/frame_guard.js';
import { checkpoint, ToolError } from '../stack/errors.js';

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

// The frames an event at (x, y) of the top viewport passes into, outermost
// first, each {url, sessionId, frameId}, and the node it lands on
// (backendNodeId, in the last frame's session).
async function landing(tabId, x, y, trees) {
  const frames = [];
  let sessionId;
  let px = x;
  let py = y;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const hit = await cdp(tabId, 'DOM.getNodeForLocation',
      { x: Math.round(px), y: Math.round(py), includeUserAgentShadowDOM: true, ignorePointerEventsNone: true }, { sessionId });
    const key = sessionId ?? '';
    if (!trees.has(key)) trees.set(key, await frameTree(tabId, sessionId));
    let tree = trees.get(key);
    if (!tree.frames.has(hit.frameId)) trees.set(key, tree = await frameTree(tabId, sessionId));
    // Frames of this process between its root and the node's (same-process iframes).
    const local = [];
    for (let id = hit.frameId; id && tree.frames.has(id); id = tree.frames.get(id).parentId) {
      local.unshift({ url: tree.frames.get(id).url, sessionId, frameId: id });
    }
    if (!local.length) throw new ToolError('the frame under the pointer could not be told — take a new snapshot and try again');
    frames.push(...(frames.length ? local.slice(1) : local));
    // An <iframe> whose document runs in another process: the event goes there.
    const child = await oopifOf(tabId, hit.backendNodeId, sessionId);
    if (!child) return { frames, node: hit.backendNodeId, sessionId };
    const { model } = await cdp(tabId, 'DOM.getBoxModel', { backendNodeId: hit.backendNodeId }, { sessionId });
    const [cx, cy, cx2] = model.content;
    const scale = model.width > 0 ? (cx2 - cx) / model.width : 1;
    px = (px - cx) / (scale || 1);
    py = (py - cy) / (scale || 1);
    sessionId = child.sessionId;
    frames.push({ url: child.targetInfo.url, sessionId, frameId: child.targetInfo.targetId });
  }
  throw new ToolError('frames nested too deep under the pointer — nothing was pressed');
}

// The child session of the out-of-process frame `backendNodeId` owns, or null.
async function oopifOf(tabId, backendNodeId, sessionId) {
  const children = childTargets(tabId).filter((c) => c.targetInfo?.type === 'iframe');
  if (!children.length) return null;
  const { node } = await cdp(tabId, 'DOM.describeNode', { backendNodeId }, { sessionId });
  if (!node?.frameId) return null;
  return children.find((c) => c.targetInfo.targetId === node.frameId) ?? null;
}

// Whether `node` is `target` or inside it (shadow trees included).
async function within(tabId, target, node, sessionId) {
  if (target === node) return true;
  const { node: tree } = await cdp(tabId, 'DOM.describeNode', { backendNodeId: target, depth: -1, pierce: true }, { sessionId });
  const stack = [tree];
  while (stack.length) {
    const n = stack.pop();
    if (n.backendNodeId === node) return true;
    stack.push(...(n.children ?? []), ...(n.shadowRoots ?? []), ...(n.pseudoElements ?? []));
    if (n.contentDocument) stack.push(n.contentDocument);
  }
  return false;
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

// Decides every frame of another site on the way (the host, for act).
async function assertFramesAllowed(tabId, frames) {
  for (const f of frames) await assertUrlAllowed(tabId, f.url);
}

// Takes where loc's aim lands now (loc was just located: its aim is on the
// target, as the page agent saw it) and returns the check for each press.
export async function armPressCheck(tabId, loc, { signal } = {}) {
  const trees = new Map();
  const want = await targetFrame(tabId, loc.frameId);
  const aim = await landing(tabId, loc.x, loc.y, trees);
  await assertFramesAllowed(tabId, aim.frames);
  if (aim.frames.length !== want.length || aim.frames.at(-1).url !== want.at(-1)) {
    throw new ToolError(`${loc.desc} is covered by a frame of ${siteOf(aim.frames.at(-1).url)} — nothing was pressed; take a new snapshot`);
  }
  return async (x, y, { frameOnly = false } = {}) => {
    checkpoint(signal, 'the press');
    const now = await landing(tabId, x, y, trees);
    await assertFramesAllowed(tabId, now.frames);
    if (!sameFrames(now.frames, aim.frames)) {
      throw new ToolError(`a frame of ${siteOf(now.frames.at(-1).url)} came under the pointer over ${loc.desc} at the moment ` +
        'of the press (the page moved it there) — nothing was pressed; take a new snapshot');
    }
    if (frameOnly || await within(tabId, aim.node, now.node, now.sessionId)) return;
    throw new ToolError(`something else came under the pointer over ${loc.desc} at the moment of the press ` +
      '(the page moved, or covered it) — nothing was pressed; take a new snapshot');
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
