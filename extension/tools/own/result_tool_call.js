// Runs a result-list tool (source "results", made by results_isolated.js):
// select_… {index} clicks the primary link or button of the list's item at
// that 0-based index, as `click` does — aimed at the very element our
// isolated world picked at the call (a token the page agent resolves,
// page/picks.js; never a selector the page could make find another
// element, nor the page's own world, which could aim our trusted input:
// docs/policy.md "Threat model"), scrolled to, hit-tested,
// a trusted click the page must be seen to receive, the site checked again
// right before it (recheckSite) — and answers as click does: what it
// clicked, then where the tab went (docs/page_tools.md "Result lists").
//
// Errors: a tab that is gone (-32001) and a document that is no longer the
// one the call names (-32003) are thrown as RpcError, the codes owntool.call
// answers with; anything else is an isError result.

import { ErrorCode, RpcError, toolLabel } from '../../worker/protocol.js';
import { attach } from '../../worker/cdp.js';
import { ToolError } from '../stack/errors.js';
import { textResult } from '../stack/results.js';
import { topDocumentId } from '../stack/tab.js';
import { account, afterState, assertNoDialog, clickAt, navResult } from '../shared/act.js';
import { withEffects } from '../shared/effects.js';
import { locate } from '../shared/targets.js';
import { DocumentGone, inDocument } from './form_tool_call.js';

// In the page (ISOLATED world): the item's target, from results_isolated.js.
function targetInPage(name, index) {
  return globalThis.__tabbridgeResults?.target(name, index) ?? { error: 'gone' };
}

export async function callResultTool(tabId, documentId, name, args, { signal, recheckSite } = {}) {
  const label = toolLabel(name);
  const changed = () => new RpcError(ErrorCode.DOCUMENT_CHANGED, `the page changed: document ${documentId} is no longer the tab's page`);
  const unknown = Object.keys(args ?? {}).find((k) => k !== 'index');
  if (unknown !== undefined) return textResult(`${label}: unknown parameter "${unknown}"; it takes "index"`, true);
  const { index } = args ?? {};
  if (!Number.isInteger(index) || index < 0) {
    return textResult(`${label}: index must be an integer, 0 for the first item`, true);
  }

  let t;
  try {
    t = await inDocument(tabId, documentId, targetInPage, [name, index]);
  } catch (e) {
    if (e instanceof DocumentGone) throw changed();
    throw e;
  }
  if (!t || t.error === 'gone') return textResult(`the page no longer has the list ${label}`, true);
  if (t.error === 'range') {
    const now = t.count ? `it has ${t.count} item${t.count === 1 ? '' : 's'} now (0 to ${t.count - 1})` : 'it has no items now';
    return textResult(`${label}: no item at index ${index} — ${now}`, true);
  }
  if (t.error) return textResult(`${label}: ${t.error}`, true);

  // A tab open since before an update of tabbridge may still run the older script, which named no pick.
  if (typeof t.picked !== 'string') return textResult(`${label}: this tab runs an older tabbridge page script — reload the tab, then call it again`, true);
  await attach(tabId);
  assertNoDialog(tabId);
  const loc = await locate(tabId, { picked: t.picked }, { signal });
  // The element was picked in documentId: never press in a page that came since.
  if ((await topDocumentId(tabId)) !== documentId) throw changed();
  if (loc.state?.disabled) throw new ToolError(`${loc.desc} is disabled — it cannot be clicked now`);
  const fx = await withEffects(tabId, async () => {
    // Right before the press (after recheckSite): still the document the call was made for.
    if ((await topDocumentId(tabId)) !== documentId) throw changed();
    return clickAt(tabId, loc, { signal });
  }, { signal, recheckSite });
  const how = `clicked ${loc.desc} (item ${index} of ${t.count})`;
  return navResult(textResult(account(how, loc.note, await afterState(tabId, 0, loc.args, loc.state, fx), fx.effects)), fx);
}
