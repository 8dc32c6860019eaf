// The read of a script that named its document (executeScript with
// documentIds, or an InjectionResult's documentId) and answered something
// other than its URL: the URL is asked of that same document by a script run
// in it alone (target documentIds: never in a later document of the frame),
// and noted with the read (reads.js). A document's origin never changes, so
// the answer is kept per documentId; a document that is gone answers no URL
// and its read is noted with none (the host withholds it).

import { noteRead } from './reads.js';
import { withTimeout } from '../../worker/time.js';

const URL_SCRIPT_MS = 3000;
const MAX_KEPT = 256;
const known = new Map(); // documentId -> url (oldest first)

// Serialised into the page: uses nothing of this module's scope (reads.js
// documentUrlInPage's rule, inline).
function urlInPage() {
  const { protocol, origin, href } = location;
  return (protocol === 'about:' || protocol === 'blob:') && origin && origin !== 'null' ? `${origin}/` : href;
}

export async function urlOfDocument(tabId, documentId) {
  if (typeof documentId !== 'string' || !documentId) return '';
  const kept = known.get(documentId);
  if (kept !== undefined) return kept;
  try {
    const [r] = await withTimeout(chrome.scripting.executeScript({
      target: { tabId, documentIds: [documentId] }, world: 'ISOLATED', injectImmediately: true, func: urlInPage,
    }), URL_SCRIPT_MS);
    const url = typeof r?.result === 'string' ? r.result : '';
    if (url && r.documentId === documentId) {
      known.set(documentId, url);
      if (known.size > MAX_KEPT) known.delete(known.keys().next().value);
    }
    return r?.documentId === documentId ? url : '';
  } catch {
    return '';
  }
}

// Notes the read of `documentId` on tabId, with its URL.
export async function noteDocumentRead(tabId, documentId) {
  noteRead(tabId, { documentId, url: await urlOfDocument(tabId, documentId) });
}

// Runs read() — a script aimed at documentId alone — with that document's
// URL asked first (the script may make it go: a submit), and notes the read
// when read() answered from that document (its InjectionResults).
export async function readingDocument(tabId, documentId, read) {
  const url = await urlOfDocument(tabId, documentId);
  const results = await read();
  if ((results ?? []).some((r) => r?.documentId === documentId)) noteRead(tabId, { documentId, url });
  return results;
}

// Notes the reads of chrome.scripting results that answered something.
export async function noteResultsRead(tabId, results) {
  await Promise.all((results ?? []).filter((r) => r && r.result !== undefined && r.result !== null)
    .map((r) => noteDocumentRead(tabId, r.documentId)));
}
