// A JavaScript dialog's words are its page's: an answer that tells them is a
// read of the document that opened it, noted with the dialog's URL
// (Page.javascriptDialogOpening's url, worker/dialogs.js; stack/reads.js).

import { describeDialog } from '../../worker/dialogs.js';
import { noteRead, readOf } from './reads.js';

// The provenance of a dialog's words.
export const dialogReadOf = (dialog) => readOf(null, typeof dialog?.url === 'string' ? dialog.url : '');

export function dialogRead(tabId, dialog) {
  noteRead(tabId, dialogReadOf(dialog));
  return describeDialog(dialog);
}
