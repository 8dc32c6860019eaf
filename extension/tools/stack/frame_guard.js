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

import { Denied, decideFrames, openCall } from '../../worker/input_broker.js';
import { withTimeout } from '../../worker/time.js';
import { ToolError } from './errors.js';

// A frame whose page shows a dialog (or is hung) never answers the question:
// a key must not wait for it for the whole call.
const FOCUS_QUESTION_MS = 2000;

// The decisions are the input broker's (worker/input_broker.js): an acting
// call opens its call there for the tab, and every frame is decided for it.
export { Denied };

export function guardFrames(tabId, policyUrl, requestId) {
  return openCall(tabId, policyUrl, requestId);
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
  await decideFrames(tabId, [url], { method: 'a press' });
}

// Keys go to the frame that has the focus: a page can hand it to a frame of
// another site (iframe.focus()) before a key — or on the first key's down.
// Each frame says, in our isolated world, whether it holds the focus itself
// or passes it on to a frame of its own; the frames that hold it are decided
// as a target there is. A focus that cannot be placed (a frame passes it on
// and none says it holds it) decides every frame of the page.
export async function assertFocusAllowed(tabId) {
  const { inTop, frames } = await focusedFrames(tabId);
  await decideFrames(tabId, frames, { method: 'a key' });
  return { inTop };
}

// Where the focus is, undecided: {inTop, frames: [url]} — the URLs of the
// frames holding it (all of the page's when it cannot be placed). The input
// broker decides them before each key (input.js binds every key to this).
export async function focusedFrames(tabId) {
  let results;
  try {
    results = await withTimeout(chrome.scripting.executeScript({
      target: { tabId, allFrames: true }, world: 'ISOLATED',
      func: () => {
        const a = document.activeElement;
        return { has: document.hasFocus(), passes: !!a && (a.localName === 'iframe' || a.localName === 'frame' || a.localName === 'object' || a.localName === 'embed') };
      },
    }), FOCUS_QUESTION_MS, 'the question which frame holds the focus');
  } catch (e) {
    if (/timed out/.test(String(e?.message))) {
      throw new ToolError(`a frame of the page did not say whether it holds the focus within ${FOCUS_QUESTION_MS / 1000} s ` +
        '(a dialog is open — see handle_dialog — or the page is busy) — no key was sent');
    }
    // Fail closed: a page that adds and removes frames to make the question
    // fail must not get its keys past it.
    throw new ToolError(`could not tell which frame holds the focus (${e?.message ?? e}) — no key was sent; try again`);
  }
  const holding = results.filter((r) => r.result?.has && !r.result.passes);
  const frames = holding.length ? holding : results.some((r) => r.result?.passes) ? results : [];
  const urls = [];
  for (const r of frames) {
    if (r.frameId === 0) continue; // the top document: the call's own page
    const frame = await chrome.webNavigation.getFrame({ tabId, frameId: r.frameId }).catch(() => null);
    urls.push(frame ? frame.url : null); // a frame gone meanwhile: no address, refused
  }
  // Where the top document's own focus is: in it, or passed on to a frame.
  return { inTop: results.some((r) => r.frameId === 0 && r.result && !r.result.passes), frames: urls };
}
