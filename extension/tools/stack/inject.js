// chrome.scripting.executeScript for the tools that read pages (read_page,
// wait_for, navigate's final read), with errors the model can act on.

import { describeDialog, dialogOf } from '../../worker/dialogs.js';
import { chromeErrorKind, NavigatedError, tabGone, ToolError } from './errors.js';
import { withTimeout } from '../../worker/time.js';
import { executeAgent } from './agent_runner.js';

const INJECT_TIMEOUT_MS = 10000;

const shortUrl = (u) => (u && u.length > 120 ? `${u.slice(0, 120)}…` : u || '(no URL)');
const dialogAdvice = (d) => `the page shows ${describeDialog(d)}: answer it with handle_dialog first`;

// Returns the InjectionResult array. Pages extensions may not script
// (chrome:, the error page) become ToolError; a frame removed under us
// (navigation) NavigatedError. injectImmediately: run now, not at
// document_idle (a page still loading). agentOp (and agentArgs): an op of
// the page agent instead of func or files, installed where the document has
// none (agent_runner.js).
export async function inject(tabId, { func, args = [], allFrames = false, frameIds, world = 'ISOLATED', files, timeoutMs = INJECT_TIMEOUT_MS,
  injectImmediately = false, agentOp, agentArgs = {} }) {
  const target = frameIds ? { tabId, frameIds } : { tabId, allFrames };
  // A JavaScript dialog blocks the page: scripts would wait for it.
  const dialog = dialogOf(tabId);
  if (dialog) throw new ToolError(dialogAdvice(dialog));
  try {
    return await withTimeout(agentOp
      ? executeAgent(tabId, frameIds ?? (allFrames ? 'all' : [0]), agentOp, agentArgs)
      : chrome.scripting.executeScript({ target, world, injectImmediately, ...(files ? { files } : { func, args }) }), timeoutMs);
  } catch (e) {
    const m = String(e?.message ?? e);
    switch (chromeErrorKind(e)) {
      case 'timeout': {
        const d = dialogOf(tabId);
        throw new ToolError(d ? dialogAdvice(d)
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
