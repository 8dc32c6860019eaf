// Trusted input lands only in frames whose site the policy allows
// (docs/policy.md "Threat model"). The host approved the call for the tab's
// top site; an element inside a frame of another site — an ad, an embedded
// bank page — is another site, so before a click, a key or a value goes
// there the host decides that frame's site for the call's session
// (policy.decide, capability act). The top document and frames of its own
// site ask nothing.
//
//   const release = guardFrames(tabId, policyUrl, requestId);  // pageTool, for tools that act
//   await assertFrameAllowed(tabId, frameId);                 // targets.js, for every target
//   await assertUrlAllowed(tabId, url);                       // press_point.js, where a press lands
//   release();

import { requestHost } from '../../worker/native_port.js';
import { HostRequest } from '../../worker/protocol.js';
import { siteKey } from '../../worker/site_key.js';
import { ToolError } from './errors.js';
import { errorResult } from './results.js';

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

const guards = new Map(); // tabId -> Set of guards of the acting calls on it

export function guardFrames(tabId, policyUrl, requestId) {
  const guard = async (url) => {
    if (typeof url !== 'string' || typeof policyUrl !== 'string' || siteKey(url) === siteKey(policyUrl)) return;
    let verdict;
    try {
      verdict = await requestHost(HostRequest.POLICY_DECIDE, { call: requestId, url, capability: 'act' });
    } catch (e) {
      verdict = { allowed: false, result: errorResult(`the host could not decide the frame's site (${e.message})`) };
    }
    if (verdict?.allowed === true) return;
    const result = structuredClone(verdict?.result ?? errorResult('denied'));
    const first = result.content?.find((c) => c.type === 'text');
    if (first) first.text = `the target is in a frame of ${siteKey(url)}: ${first.text}; nothing was done`;
    throw new Denied({ ...result, isError: true });
  };
  let set = guards.get(tabId);
  if (!set) guards.set(tabId, set = new Set());
  set.add(guard);
  return () => {
    set.delete(guard);
    if (!set.size && guards.get(tabId) === set) guards.delete(tabId);
  };
}

// Every acting call on the tab must allow it (two sessions may act at once).
export async function assertFrameAllowed(tabId, frameId) {
  if (frameId === 0) return;
  const frame = await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
  if (frame) await assertUrlAllowed(tabId, frame.url);
}

// The same decision for a frame known by its URL (press_point.js: the
// frames a press lands in, as the browser's hit test names them). Only an
// acting call (pageTool's acts) may press: without one nothing is allowed.
export async function assertUrlAllowed(tabId, url) {
  const set = guards.get(tabId);
  if (!set?.size) throw new Error('a press outside an acting call: its tool must be defined with acts: true');
  for (const guard of [...set]) await guard(url);
}

// Keys go to the frame that has the focus: a page can hand it to a frame of
// another site (iframe.focus()) before a key — or on the first key's down.
// Each frame says, in our isolated world, whether it holds the focus itself
// or passes it on to a frame of its own; the frames that hold it are decided
// as a target there is. A focus that cannot be placed (a frame passes it on
// and none says it holds it) decides every frame of the page.
export async function assertFocusAllowed(tabId) {
  let results;
  try {
    results = await chrome.scripting.executeScript({
      target: { tabId, allFrames: true }, world: 'ISOLATED',
      func: () => {
        const a = document.activeElement;
        return { has: document.hasFocus(), passes: !!a && (a.localName === 'iframe' || a.localName === 'frame' || a.localName === 'object' || a.localName === 'embed') };
      },
    });
  } catch (e) {
    // Fail closed: a page that adds and removes frames to make the question
    // fail must not get its keys past it.
    throw new ToolError(`could not tell which frame holds the focus (${e?.message ?? e}) — no key was sent; try again`);
  }
  const holding = results.filter((r) => r.result?.has && !r.result.passes);
  const frames = holding.length ? holding : results.some((r) => r.result?.passes) ? results : [];
  for (const r of frames) await assertFrameAllowed(tabId, r.frameId);
  // Where the top document's own focus is: in it, or passed on to a frame.
  return { inTop: results.some((r) => r.frameId === 0 && r.result && !r.result.passes) };
}
