// Provenance on every read (issue 42 item 1; docs/protocol.md "Where text was
// read"). Every read of a page — a script run in a frame, a CDP evaluation, a
// capture, a log entry, a dialog, a tab's title — is noted here with the
// {documentId, url} of the document it was read from, taken from the same
// script or CDP answer that read it (never from a URL a tool computed
// earlier). pageTool (page_tool.js) opens a ledger for each call on a tab;
// a read on that tab goes into every ledger open on it (a read by a
// concurrent call on the same tab only makes the others stricter), and the
// answer's blocks are stamped with the ledger in
// _meta[READ_META]: the host decides `read` on every URL before the model
// sees the block (host/read_provenance.h) and drops a block without one.
//
// The modules that may run scripts in pages or read them over CDP are listed
// in tests/js/read_primitives.test.mjs: a tool reads through them, so it
// cannot hand over text the host never judged.
//
// No chrome.* here: tests/js/reads.test.mjs imports it.

import { READ_META } from '../../worker/protocol.js';

// tabId -> Set of open ledgers (Map key -> {documentId, url}).
const open = new Map();

const keyOf = (r) => `${r.documentId ?? ''}\u0000${r.url}`;

// The provenance of one read, in the wire's shape: url always a string (an
// empty one is a document the host cannot place: it withholds the block).
export function readOf(documentId, url) {
  return { documentId: typeof documentId === 'string' ? documentId : null, url: typeof url === 'string' ? url : '' };
}

// A ledger for one call on tabId: every read noted on the tab until close().
export function openLedger(tabId) {
  const reads = new Map();
  let set = open.get(tabId);
  if (!set) open.set(tabId, set = new Set());
  set.add(reads);
  return {
    reads: () => [...reads.values()],
    close() {
      const s = open.get(tabId);
      s?.delete(reads);
      if (s && !s.size) open.delete(tabId);
    },
  };
}

// A read on tabId of the document {documentId, url} (documentId null where
// the browser gives none): into every ledger open on the tab (none: a read
// outside a call — the worker's own bookkeeping — goes nowhere, and no answer
// carries it).
export function noteRead(tabId, { documentId = null, url = '' } = {}) {
  const set = open.get(tabId);
  if (!set) return;
  const r = readOf(documentId, url);
  for (const reads of set) reads.set(keyOf(r), r);
}

// How many ledgers are open on tabId (tests).
export const openLedgers = (tabId) => open.get(tabId)?.size ?? 0;

// Notes the reads of chrome.scripting results ({documentId, result}) whose
// script answered its document's URL: `urlOf(result)` (the read primitives'
// own shape). A result without a documentId (a frame gone) read nothing.
export function noteInjectionResults(tabId, results, urlOf) {
  for (const r of results ?? []) {
    if (!r || r.result === undefined || r.result === null) continue;
    noteRead(tabId, { documentId: r.documentId, url: urlOf(r.result) });
  }
}

// A tab's title (chrome.tabs.Tab) is its top document's words: noted with
// the URL the same Tab object reports. Returns the title.
export function titleRead(tabId, tab) {
  noteRead(tabId, { documentId: null, url: tab?.url || tab?.pendingUrl || '' });
  return tab?.title ?? '';
}

const hasMark = (x) => Array.isArray(x?._meta?.[READ_META]);

// result with every content block that names no documents stamped with
// `reads`, and the result (its structuredContent) likewise. A block a tool
// marked itself keeps its own mark (it knows better: a block of its own words
// is []).
export function stampResult(result, reads) {
  if (!result || typeof result !== 'object') return result;
  const mark = (x) => (hasMark(x) ? x : { ...x, _meta: { ...(x._meta ?? {}), [READ_META]: reads } });
  const content = Array.isArray(result.content) ? result.content.map((b) => (b && typeof b === 'object' ? mark(b) : b)) : result.content;
  return { ...mark(result), ...(content !== undefined ? { content } : {}) };
}

// A block's own mark: the documents given (an empty list: no page text).
export const withReads = (block, reads) => ({ ...block, _meta: { ...(block._meta ?? {}), [READ_META]: reads } });
