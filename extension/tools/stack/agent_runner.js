// Running the page agent (extension/page/agent/*.js) in a tab's frames,
// installed once per document: a call sends only a small function (callAgent)
// that hands op and args to the agent already in the frame's isolated world.
// A frame without it (new document) gets the agent's files first
// (executeScript({files})), then the call.
//
// Round trips: a frame this worker has called since its document committed:
// one (the call). A frame it has not (new document, worker restarted): two
// (files, call). A frame it believed had the agent but has not (it committed
// unseen, or the agent there is another worker's): three (call answers
// "missing", files, call). The op itself runs once either way: a "missing"
// answer means it did not run.
//
// The agent's code lives in the document's isolated world (one per document;
// a document restored from the back/forward cache keeps it); its ref registry
// sits apart (registry.js), so installing newer code keeps the refs.

import { AGENT_FILES, AGENT_VERSION, callAgent, isMissing, readUrlOf, valueOf } from './agent_call.js';
import { agentFrames } from '../../worker/tab_state.js';
import { noteInjectionResults } from './reads.js';

// tabId -> Set of frameIds whose current document got the agent from this
// worker (tab_state.js drops a closed tab's entry).
const known = agentFrames;

let watching = false;
function watchCommits() {
  if (watching) return;
  watching = true;
  // A new document in a frame has no agent (a new top document: nor do its frames).
  chrome.webNavigation.onCommitted.addListener(({ tabId, frameId }) => {
    if (frameId === 0) known.delete(tabId);
    else known.get(tabId)?.delete(frameId);
  });
}

function remember(tabId, results) {
  let frames = known.get(tabId);
  if (!frames) known.set(tabId, frames = new Set());
  for (const r of results) if (!isMissing(r.result)) frames.add(r.frameId);
}

function install(target) {
  return chrome.scripting.executeScript({ target, world: 'ISOLATED', files: AGENT_FILES });
}

function call(target, op, args, installed) {
  return chrome.scripting.executeScript({ target, world: 'ISOLATED', func: callAgent, args: [op, args, AGENT_VERSION, installed] });
}

// Runs agent op with args in frames (an array of frameIds, or 'all') of the
// tab; resolves to chrome.scripting's results ({frameId, documentId, result,
// read: {documentId, url}}), each read noted with its document's URL (reads.js);
// a frame that loses the agent between install and call (it navigated)
// answers result undefined. Rejects with chrome.scripting's errors.
export async function executeAgent(tabId, frameIds, op, args) {
  watchCommits();
  const all = frameIds === 'all';
  const target = all ? { tabId, allFrames: true } : { tabId, frameIds };
  const frames = known.get(tabId);
  const fresh = !(all ? frames?.has(0) : frameIds.every((f) => frames?.has(f)));
  if (fresh) await install(target);
  let results = await call(target, op, args, fresh);
  const missing = results.filter((r) => isMissing(r.result)).map((r) => r.frameId);
  if (missing.length) {
    const again = { tabId, frameIds: missing };
    const retry = async () => {
      await install(again);
      return call(again, op, args, true);
    };
    // One frame of many gone meanwhile must not fail the others' answers.
    const retried = new Map((await (all ? retry().catch(() => []) : retry())).map((r) => [r.frameId, r]));
    results = results.map((r) => retried.get(r.frameId) ?? r);
  }
  remember(tabId, results);
  // Every frame that answered was read: its document and URL, from the call itself.
  const answered = results.filter((r) => !isMissing(r.result));
  noteInjectionResults(tabId, answered, readUrlOf);
  return results.map((r) => (isMissing(r.result) ? { ...r, result: undefined }
    : { ...r, result: valueOf(r.result), read: { documentId: r.documentId ?? null, url: readUrlOf(r.result) } }));
}
