// chrome.scripting.executeScript for the tools that read pages (read_page,
// wait_for, navigate's final read), with errors the model can act on.

import { dialogOf } from '../../worker/dialogs.js';
import { dialogRead } from './dialog_reads.js';
import { chromeErrorKind, NavigatedError, tabGone, ToolError } from './errors.js';
import { withTimeout } from '../../worker/time.js';
import { executeAgent } from './agent_runner.js';
import { noteRead } from './reads.js';
import { noteResultsRead } from './document_reads.js';

const INJECT_TIMEOUT_MS = 10000;

const shortUrl = (u) => (u && u.length > 120 ? `${u.slice(0, 120)}…` : u || '(no URL)');
// The dialog's words are its page's (noted with the dialog's URL).
const dialogAdvice = (tabId, d) => `the page shows ${dialogRead(tabId, d)}: answer it with handle_dialog first`;

// Returns the InjectionResult array. Pages extensions may not script
// (chrome:, the error page) become ToolError; a frame removed under us
// (navigation) NavigatedError. injectImmediately: run now, not at
// document_idle (a page still loading). agentOp (and agentArgs): an op of
// the page agent instead of func or files, installed where the document has
// none (agent_runner.js).
// Every frame that answered was read (stack/reads.js): the page agent notes
// its own; a func's read is noted with readUrl(result) — the URL its script
// answered with what it read — or, without readUrl, with the URL its document
// answers when asked (document_reads.js).
export async function inject(tabId, { func, args = [], allFrames = false, frameIds, world = 'ISOLATED', files, timeoutMs = INJECT_TIMEOUT_MS,
  injectImmediately = false, agentOp, agentArgs = {}, readUrl = null }) {
  const target = frameIds ? { tabId, frameIds } : { tabId, allFrames };
  // A JavaScript dialog blocks the page: scripts would wait for it.
  const dialog = dialogOf(tabId);
  if (dialog) throw new ToolError(dialogAdvice(tabId, dialog));
  try {
    if (agentOp) return await withTimeout(executeAgent(tabId, frameIds ?? (allFrames ? 'all' : [0]), agentOp, agentArgs), timeoutMs);
    const results = await withTimeout(chrome.scripting.executeScript({ target, world, injectImmediately, ...(files ? { files } : { func, args }) }), timeoutMs);
    if (readUrl) {
      for (const r of results ?? []) if (r?.result !== undefined && r?.result !== null) noteRead(tabId, { documentId: r.documentId, url: readUrl(r.result) });
    } else {
      await noteResultsRead(tabId, results);
    }
    return results;
  } catch (e) {
    const m = String(e?.message ?? e);
    switch (chromeErrorKind(e)) {
      case 'timeout': {
        const d = dialogOf(tabId);
        throw new ToolError(d ? dialogAdvice(tabId, d)
          : `the page did not answer within ${timeoutMs / 1000} s (busy with a long script, or a dialog is open — see handle_dialog)`);
      }
      case 'tabGone':
        throw tabGone(tabId);
      case 'errorPage': {
        const tab = await chrome.tabs.get(tabId).catch(() => null);
        throw new ToolError(`the tab shows the browser's error page for ${shortUrl(tab?.url || tab?.pendingUrl)} ` +
          '(the page failed to load): navigate again, or check network_errors');
      }
      case 'notScriptable': {
        const tab = await chrome.tabs.get(tabId).catch(() => null);
        throw new ToolError(
          `cannot read this page (${shortUrl(tab?.url || tab?.pendingUrl)}): the browser does not let extensions ` +
            `run in it (${m}). Navigate to an http(s) page first.`);
      }
      case 'frameGone':
        throw new NavigatedError(m);
      default:
        throw e;
    }
  }
}

// The main frame's result of an inject() (frameId 0), or the first one.
export function mainResult(results) {
  const r = results?.find((x) => x.frameId === 0) ?? results?.[0];
  return r?.result;
}
