// The one way a page tool gets its tab.

import { ErrorCode, RpcError } from '../../worker/protocol.js';
import { chromeErrorKind, tabGone } from './errors.js';

export function requireTabId(tabId) {
  if (!Number.isInteger(tabId)) throw new RpcError(ErrorCode.INVALID_ARGUMENT, 'tabId must be an integer');
  return tabId;
}

// chrome.tabs.get, a tab that is gone as tabGone (TAB_NOT_FOUND).
export async function getTab(tabId) {
  requireTabId(tabId);
  try {
    return await chrome.tabs.get(tabId);
  } catch (e) {
    throw chromeErrorKind(e) === 'tabGone' ? tabGone(tabId) : e;
  }
}

// Chrome's id of the tab's current top-level document (null when it has none).
export async function topDocumentId(tabId) {
  const f = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
  return f?.documentId ?? null;
}
