// Runs a result-list tool (source "results", made by results_isolated.js):
// select_… {index} clicks the primary link or button of the list's item at
// that 0-based index, as `click` does — aimed at the very element our
// isolated world picked at the call (a token the page agent resolves,
// page/picks.js; never a selector the page could make find another
// element, nor the page's own world, which could aim our trusted input:
// docs/policy.md "Threat model"), scrolled to, hit-tested,
// a trusted click the page must be seen to receive, the site checked again
// right before it (recheckSite) — and answers as click does: what it
// clicked, then where the tab went and what the page it went to says (its
// main content, result_page.js; docs/page_tools.md "Result lists").
//
// Errors: a tab that is gone (-32001) and a document that is no longer the
// one the call names (-32003) are thrown as RpcError, the codes owntool.call
// answers with; anything else is an isError result.

import { toolLabel } from '../../worker/protocol.js';
import { textResult } from '../stack/results.js';
import { account, afterState, navResult } from '../shared/act.js';
import { inCallDocument } from './in_document.js';
import { pressPicked } from './press_picked.js';
import { landedPageBlocks } from './result_page.js';

// In the page (ISOLATED world): the item's target, from results_isolated.js.
function targetInPage(name, index) {
  return globalThis.__tabbridgeResults?.target(name, index) ?? { error: 'gone' };
}

export async function callResultTool(tabId, documentId, name, args, { signal, recheckSite, deadline } = {}) {
  const label = toolLabel(name);
  const unknown = Object.keys(args ?? {}).find((k) => k !== 'index');
  if (unknown !== undefined) return textResult(`${label}: unknown parameter "${unknown}"; it takes "index"`, true);
  const { index } = args ?? {};
  if (!Number.isInteger(index) || index < 0) {
    return textResult(`${label}: index must be an integer, 0 for the first item`, true);
  }

  const t = await inCallDocument(tabId, documentId, targetInPage, [name, index]);
  if (!t || t.error === 'gone') return textResult(`the page no longer has the list ${label}`, true);
  if (t.error === 'range') {
    const now = t.count ? `it has ${t.count} item${t.count === 1 ? '' : 's'} now (0 to ${t.count - 1})` : 'it has no items now';
    return textResult(`${label}: no item at index ${index} — ${now}`, true);
  }
  if (t.error) return textResult(`${label}: ${t.error}`, true);

  const { loc, fx, landed } = await pressPicked(tabId, documentId, t.picked, label, { signal, recheckSite, deadline });
  const how = `clicked ${loc.desc} (item ${index} of ${t.count})`;
  const r = textResult(account(how, loc.note, await afterState(tabId, loc.frameId, loc.args, loc.state, fx), fx.effects));
  r.content.push(...landedPageBlocks(landed));
  return navResult(r, fx, landed);
}
