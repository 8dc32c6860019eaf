// A generated tool's call names the document its tool was listed in: its page
// scripts run in that document only, never in one that came since.

import { ErrorCode, RpcError } from '../../worker/protocol.js';
import { chromeErrorKind, tabGone, ToolError } from '../stack/errors.js';
import { withTimeout } from '../../worker/time.js';
import { readingDocument } from '../stack/document_reads.js';

const SCRIPT_TIMEOUT_MS = 5000;

export class DocumentGone extends Error {}

// Runs func in the named document only (never in a later one); its answer is
// a read of that document (document_reads.js).
export async function inDocument(tabId, documentId, func, args = [], world = 'ISOLATED') {
  try {
    // A read of that document, noted with its URL (stack/reads.js).
    const [r] = await withTimeout(readingDocument(tabId, documentId, () => chrome.scripting.executeScript({
      target: { tabId, documentIds: [documentId] }, world, func, args,
    })), SCRIPT_TIMEOUT_MS);
    return r?.result;
  } catch (e) {
    switch (chromeErrorKind(e)) {
      case 'tabGone': throw tabGone(tabId);
      case 'frameGone': throw new DocumentGone(String(e?.message ?? e));
      case 'timeout': throw new ToolError('the page did not answer in time — it may be busy or blocked by a dialog');
      default: throw new ToolError(`page script failed: ${String(e?.message ?? e)}`);
    }
  }
}

// The call's document is no longer the tab's page (-32003, owntool.call's code).
export const documentChanged = (documentId) =>
  new RpcError(ErrorCode.DOCUMENT_CHANGED, `the page changed: document ${documentId} is no longer the tab's page`);

// inDocument, where a document that is gone is the page having changed.
export async function inCallDocument(tabId, documentId, func, args = []) {
  try {
    return await inDocument(tabId, documentId, func, args);
  } catch (e) {
    if (e instanceof DocumentGone) throw documentChanged(documentId);
    throw e;
  }
}
