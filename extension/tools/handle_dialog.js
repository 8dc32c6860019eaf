// handle_dialog {accept, promptText?}: answers the JavaScript dialog the tab shows.
// (docs/page_tools.md; every action answers a short account: the element, then
// what followed — navigation, dialog, new tab, its new state.)

import { attachStalled } from '../worker/cdp.js';
import { describeDialog, dialogOf, handleDialog } from '../worker/dialogs.js';
import { Denied } from '../worker/input_broker.js';
import { dialogReadOf } from './stack/dialog_reads.js';
import { withReads } from './stack/reads.js';
import { checkpoint } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { account, navResult } from './shared/act.js';
import { withEffects } from './shared/effects.js';

// The dialog's answer goes to the frame that opened it: the input broker
// decides that frame's site for this call (not an acting tool: the call is
// passed). An accept the policy does not allow is refused and the dialog
// stays open; a dismiss goes (docs/page_tools.md).
async function handleDialogTool(tabId, { accept, promptText }, { signal, recheckSite, requestId, policyUrl }) {
  const open = dialogOf(tabId);
  if (!open) {
    return textResult(attachStalled(tabId)
      ? 'no dialog tabbridge can answer is open, but the page is not responding: a dialog that opened before tabbridge attached may be blocking it — ask the user to close it, or reload the tab'
      : 'no dialog is open on this tab', true);
  }
  // The answer quotes the dialog in a block of its own: a read of the
  // document that opened it, which the host judges apart from ours.
  const quote = { ...textResult(`the dialog: ${describeDialog(open)}`).content[0] };
  const withQuote = (result) => ({ ...result, content: [...result.content, withReads(quote, [dialogReadOf(open)])] });
  let r;
  const fx = await withEffects(tabId, async () => {
    checkpoint(signal, 'answering the dialog');
    try {
      r = await handleDialog(tabId, { accept, promptText }, { call: { requestId, policyUrl } });
    } catch (e) {
      if (!(e instanceof Denied)) throw e;
      const result = structuredClone(e.result);
      const first = result.content?.find((c) => c.type === 'text');
      if (first) first.text += ` — the ${open.type} dialog stays open: dismiss it (handle_dialog {accept: false}) or ask the person to answer it`;
      throw new Denied(withQuote(result));
    }
  }, { signal, recheckSite });
  if (r.isError) return navResult(textResult(r.text, true), fx);
  return withQuote(navResult(textResult(account(r.text, fx.effects)), fx));
}

export const tool = pageTool(handleDialogTool, { debugger: 'required', name: 'handle_dialog', newPageTools: true });
