// The one way a generated tool presses (a button tool's button, a result
// list's item): the element our isolated world picked for the call
// (page/picks.js), aimed at by its token, never by a selector; pressed only
// while the call's document is still the tab's page, after the caller's last
// check, through clickAt's press-point check with the site checked again
// right before (recheckSite) — as `click` presses (shared/act.js). What the
// press did is read as a click's is, with the text it changed (withEffects
// texts); a press that took the tab to another document also reads that
// page's main content (result_page.js), with the URL of the document read.

import { Deadlines } from '../../worker/protocol.js';
import { attach } from '../../worker/cdp.js';
import { ToolError } from '../stack/errors.js';
import { topDocumentId } from '../stack/tab.js';
import { assertNoDialog, clickAt } from '../shared/act.js';
import { withEffects } from '../shared/effects.js';
import { locate } from '../shared/targets.js';
import { documentChanged } from './in_document.js';
import { watchResultPage } from './result_page.js';

// Presses the element picked as `picked` in documentId for the tool `label`.
// beforePress: the caller's last check, right before the press (throws to
// press nothing). Returns {loc, fx, landed}: the located element,
// withEffects' account of what followed and, when the press took the tab to
// another document, result_page.js read's answer there (mode 'main': {url,
// text} of the document read, or why none was: failed, timedOut, cancelled),
// read by the call's deadline (deadline, ms since the epoch).
export async function pressPicked(tabId, documentId, picked, label, { signal, recheckSite, beforePress, deadline = Infinity } = {}) {
  const startedAt = Date.now();
  // A tab open since before an update of tabbridge may still run the older script, which named no pick.
  if (typeof picked !== 'string') {
    throw new ToolError(`${label}: this tab runs an older tabbridge page script — reload the tab, then call it again`);
  }
  await attach(tabId);
  assertNoDialog(tabId);
  const loc = await locate(tabId, { picked }, { signal });
  // The element was picked in documentId: never press in a page that came since.
  if ((await topDocumentId(tabId)) !== documentId) throw documentChanged(documentId);
  if (loc.state?.disabled) throw new ToolError(`${loc.desc} is disabled — it cannot be clicked now`);
  // From before the press: its navigation can commit before withEffects answers.
  const landing = watchResultPage(tabId, documentId);
  try {
    // The change watch is locate's (armed: its prepare), which knows the
    // element: its new name is told, and the text inside it not told twice.
    const fx = await withEffects(tabId, async () => {
      // Right before the press (after recheckSite): still the document the call was made for.
      if ((await topDocumentId(tabId)) !== documentId) throw documentChanged(documentId);
      await beforePress?.();
      return clickAt(tabId, loc, { signal });
    }, { frameId: loc.frameId, signal, recheckSite, target: loc, armed: true, texts: true });
    let landed = null;
    if (fx.navigated && !fx.navFailed && !fx.dialog) {
      const until = Math.min(deadline, startedAt + Deadlines.OWN_TOOL_CALL_MS) - Deadlines.ANSWER_MARGIN_MS;
      landed = await landing.read({ until, signal, mode: 'main' });
    }
    return { loc, fx, landed };
  } finally {
    landing.dispose();
  }
}
