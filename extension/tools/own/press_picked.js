// The one way a generated tool presses (a button tool's button, a result
// list's item): the element our isolated world picked for the call
// (page/picks.js), aimed at by its token, never by a selector; pressed only
// while the call's document is still the tab's page, after the caller's last
// check, through clickAt's press-point check with the site checked again
// right before (recheckSite) — as `click` presses (shared/act.js).

import { attach } from '../../worker/cdp.js';
import { ToolError } from '../stack/errors.js';
import { topDocumentId } from '../stack/tab.js';
import { assertNoDialog, clickAt } from '../shared/act.js';
import { withEffects } from '../shared/effects.js';
import { locate } from '../shared/targets.js';
import { documentChanged } from './in_document.js';

// Presses the element picked as `picked` in documentId for the tool `label`.
// beforePress: the caller's last check, right before the press (throws to
// press nothing). Returns {loc, fx}: the located element and withEffects'
// account of what followed.
export async function pressPicked(tabId, documentId, picked, label, { signal, recheckSite, beforePress } = {}) {
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
  const fx = await withEffects(tabId, async () => {
    // Right before the press (after recheckSite): still the document the call was made for.
    if ((await topDocumentId(tabId)) !== documentId) throw documentChanged(documentId);
    await beforePress?.();
    return clickAt(tabId, loc, { signal });
  }, { frameId: loc.frameId, signal, recheckSite });
  return { loc, fx };
}
