// A read or a capture answers only from the top document its site check
// passed for (docs/policy.md "Threat model": a check holds until the act is
// done). A page sees some of what a tool does (a tab brought forward, a
// script run) and may navigate on it — history.back() to a page of a site
// the policy denies — so the check is made on the document itself, and the
// answer is dropped when the top frame committed another document meanwhile:
// PAGE_MOVED, and the host decides again on where the tab is now.
//
//   const pin = pinTop(tabId, policyUrl);  // starts watching the top frame
//   await pin.check();                     // the site of the document now; remembers it
//   … read or capture …
//   await pin.assertSame();                // throws PAGE_MOVED when it is not the same document
//   pin.dispose();

import { ErrorCode, RpcError } from '../../worker/protocol.js';
import { assertOnSite } from '../../worker/site_key.js';
import { watchTopFrame } from '../shared/navigated_to.js';

const topFrame = (tabId) => chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);

const moved = (url) =>
  new RpcError(ErrorCode.PAGE_MOVED, `the tab's page changed during the call (now ${url || 'no page'}); nothing of it was kept`, { url: url ?? '' });

export function pinTop(tabId, policyUrl) {
  // Before the check: a commit after it is seen even when the tab comes back
  // to the same document (the back/forward cache keeps its id).
  const watch = watchTopFrame(tabId);
  let documentId = null;
  let url = null;
  return {
    // Checks the site of the top document now (its own URL, not the tab's
    // last reported one) and pins it. A tab with no top frame is left to the
    // tool's own look-up (gone).
    async check() {
      const frame = await topFrame(tabId);
      if (!frame) return null;
      assertOnSite({ url: frame.url }, policyUrl);
      documentId = frame.documentId;
      url = frame.url;
      return documentId;
    },
    get documentId() {
      return documentId;
    },
    // The URL of the pinned document as the check read it (a capture of it
    // is a read of that document: stack/reads.js).
    get url() {
      return url;
    },
    // The result's documents: a frame-0 result from another document is not ours.
    async assertSame(resultDocumentId = null) {
      if (documentId === null) return;
      const frame = await topFrame(tabId);
      if (!frame || frame.documentId !== documentId || watch.committedOtherThan(documentId) ||
        (resultDocumentId !== null && resultDocumentId !== documentId)) {
        throw moved(frame?.url);
      }
    },
    dispose() {
      watch.dispose();
    },
  };
}
