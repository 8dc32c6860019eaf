// Runs a button tool (source "buttons", made by buttons_isolated.js):
// press_… {} presses the page's button listed under that name, as `click`
// does — aimed at the very element our isolated world listed (a token the
// page agent resolves, page/picks.js; never a selector, which the page
// could make find another element, nor the page's own world, which could
// aim our trusted input: docs/policy.md "Threat model"), scrolled to, held
// still, hit-tested, pressed only where the browser's own hit test at the
// press finds it (shared/act.js clickAt:
// press_point.js), a trusted click the page must be seen to receive, the
// site checked again right before it (recheckSite) — and answers as click
// does: what it clicked, then what changed (the button's new text, its
// state, where the tab went, a dialog, a new tab; docs/page_tools.md
// "Buttons").
//
// Errors: a tab that is gone (-32001) and a document that is no longer the
// one the call names (-32003) are thrown as RpcError, the codes owntool.call
// answers with; anything else is an isError result.

import { ErrorCode, RpcError, toolLabel } from '../../worker/protocol.js';
import { attach } from '../../worker/cdp.js';
import { ToolError } from '../stack/errors.js';
import { textResult } from '../stack/results.js';
import { topDocumentId } from '../stack/tab.js';
import { account, afterState, assertNoDialog, clickAt, navResult, show } from '../shared/act.js';
import { withEffects } from '../shared/effects.js';
import { locate } from '../shared/targets.js';
import { DocumentGone, inDocument } from './form_tool_call.js';

// In the page (ISOLATED world): the button's target, from buttons_isolated.js.
// In the page (ISOLATED world): the button listed as name is still the one picked, unchanged.
function confirmInPage(name, token) {
  return globalThis.__tabbridgeButtons?.confirm(name, token) === true;
}

function targetInPage(name) {
  return globalThis.__tabbridgeButtons?.target(name) ?? { error: 'gone' };
}
// In the page (ISOLATED world): what the button pressed says now.
function afterInPage() {
  return globalThis.__tabbridgeButtons?.after() ?? null;
}

export async function callButtonTool(tabId, documentId, name, args, { signal, recheckSite } = {}) {
  const label = toolLabel(name);
  const changed = () => new RpcError(ErrorCode.DOCUMENT_CHANGED, `the page changed: document ${documentId} is no longer the tab's page`);
  const unknown = Object.keys(args ?? {})[0];
  if (unknown !== undefined) return textResult(`${label}: unknown parameter "${unknown}"; it takes none`, true);

  const inPage = async (func, fargs = []) => {
    try {
      return await inDocument(tabId, documentId, func, fargs);
    } catch (e) {
      if (e instanceof DocumentGone) throw changed();
      throw e;
    }
  };
  const t = await inPage(targetInPage, [name]);
  if (!t || t.error === 'gone') return textResult(`the page no longer has the button ${label}`, true);
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
    // And the element aimed at is still the button listed under that name, with its label.
    if (!(await inPage(confirmInPage, [name, t.picked]))) {
      throw new ToolError(`the page changed the button ${label} before the press — nothing was pressed; call it again`);
    }
    return clickAt(tabId, loc, { signal });
  }, { frameId: loc.frameId, signal, recheckSite });
  const now = [];
  if (!fx.navigated && !fx.dialog) {
    const a = await inPage(afterInPage).catch(() => null);
    // A button that left the page: afterState says so.
    if (a && !a.gone && a.text !== t.text) now.push(`the button now says ${show(a.text)} (was ${show(t.text)})`);
  }
  const state = await afterState(tabId, loc.frameId, loc.args, loc.state, fx);
  return navResult(textResult(account(`clicked ${loc.desc}`, loc.note, now, state, fx.effects)), fx);
}
