// A JavaScript dialog's words are its page's: an answer that tells them is a
// read of the document that opened it, noted with the dialog's URL
// (Page.javascriptDialogOpening's url, worker/dialogs.js; stack/reads.js).

import { describeDialog } from '../../worker/dialogs.js';
import { noteRead } from './reads.js';

export function dialogRead(tabId, dialog) {
  noteRead(tabId, { documentId: null, url: typeof dialog?.url === 'string' ? dialog.url : '' });
  return describeDialog(dialog);
}
