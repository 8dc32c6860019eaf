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
//   release();

import { requestHost } from '../../worker/native_port.js';
import { HostRequest } from '../../worker/protocol.js';
import { siteKey } from '../../worker/site_key.js';
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
  const guard = async (frameId) => {
    const frame = await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
    if (!frame || typeof policyUrl !== 'string' || siteKey(frame.url) === siteKey(policyUrl)) return;
    let verdict;
    try {
      verdict = await requestHost(HostRequest.POLICY_DECIDE, { call: requestId, url: frame.url, capability: 'act' });
    } catch (e) {
      verdict = { allowed: false, result: errorResult(`the host could not decide the frame's site (${e.message})`) };
    }
    if (verdict?.allowed === true) return;
    const result = structuredClone(verdict?.result ?? errorResult('denied'));
    const first = result.content?.find((c) => c.type === 'text');
    if (first) first.text = `the target is in a frame of ${siteKey(frame.url)}: ${first.text}; nothing was done`;
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
  for (const guard of [...(guards.get(tabId) ?? [])]) await guard(frameId);
}
