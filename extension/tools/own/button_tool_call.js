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
// state, the page's text it changed, where the tab went, a dialog, a new
// tab), and, when the press took the tab to another page, that page's main
// content (result_page.js; docs/page_tools.md "Buttons").
//
// Errors: a tab that is gone (-32001) and a document that is no longer the
// one the call names (-32003) are thrown as RpcError, the codes owntool.call
// answers with; anything else is an isError result.

import { toolLabel } from '../../worker/protocol.js';
import { ToolError } from '../stack/errors.js';
import { textResult } from '../stack/results.js';
import { account, afterState, navResult, show } from '../shared/act.js';
import { inCallDocument } from './in_document.js';
import { pressPicked } from './press_picked.js';
import { landedPageBlocks } from './result_page.js';

// In the page (ISOLATED world): the button's target, from buttons_isolated.js.
function targetInPage(name) {
  return globalThis.__tabbridgeButtons?.target(name) ?? { error: 'gone' };
}
// In the page (ISOLATED world): the button listed as name is still the one picked, unchanged.
function confirmInPage(name, token) {
  return globalThis.__tabbridgeButtons?.confirm(name, token) === true;
}
// In the page (ISOLATED world): what the button pressed says now.
function afterInPage() {
  return globalThis.__tabbridgeButtons?.after() ?? null;
}

export async function callButtonTool(tabId, documentId, name, args, { signal, recheckSite, deadline } = {}) {
  const label = toolLabel(name);
  const unknown = Object.keys(args ?? {})[0];
  if (unknown !== undefined) return textResult(`${label}: unknown parameter "${unknown}"; it takes none`, true);

  const inPage = (func, fargs = []) => inCallDocument(tabId, documentId, func, fargs);
  const t = await inPage(targetInPage, [name]);
  if (!t || t.error === 'gone') return textResult(`the page no longer has the button ${label}`, true);
  if (t.error) return textResult(`${label}: ${t.error}`, true);

  const { loc, fx, landed } = await pressPicked(tabId, documentId, t.picked, label, {
    signal,
    recheckSite,
    deadline,
    // The element aimed at is still the button listed under that name, with its label.
    beforePress: async () => {
      if (!(await inPage(confirmInPage, [name, t.picked]))) {
        throw new ToolError(`the page changed the button ${label} before the press — nothing was pressed; call it again`);
      }
    },
  });
  const now = [];
  if (!fx.navigated && !fx.dialog) {
    const a = await inPage(afterInPage).catch(() => null);
    // A button that left the page: afterState says so.
    if (a && !a.gone && a.text !== t.text) now.push(`the button now says ${show(a.text)} (was ${show(t.text)})`);
  }
  // The button's new label is told once: by the clause above when it has one.
  if (now.length && fx.after) fx.after.renamed = null;
  const state = await afterState(tabId, loc.frameId, loc.args, loc.state, fx);
  const r = textResult(account(`clicked ${loc.desc}`, loc.note, now, state, fx.effects));
  r.content.push(...landedPageBlocks(landed));
  return navResult(r, fx, landed);
}
