// Keys go wherever the focus is when each one arrives, and a page can move
// the focus into a frame of another site between our focus check and the key
// (a timer calling iframe.focus() every few ms): the check and the key are
// two steps. So while keys go to a field of the top document itself, no frame
// of that document can take the focus at all: a user stylesheet (which no
// page style overrides, !important included) makes every frame owner inert,
// and an inert frame and everything in it cannot be focused — iframe.focus()
// does nothing. A field inside a frame gets the focus check alone
// (docs/policy.md "Races the browser does not let us close").
//
//   const unshield = await shieldFocus(tabId, frameId);  // the field's frame
//   ... keys, each after its focus check ...
//   unshield();

import { userSheet } from './user_sheet.js';

const INERT = 'iframe, frame, object, embed, fencedframe { interactivity: inert !important; }';

// frameId: the frame of the field the keys are for (press_key: 0 when the
// focus check found the focus in the top document itself — making a focused
// frame inert would take its focus away).
// A page the stylesheet cannot go into (about:blank, a page of the browser's
// own) types unshielded: every key is still checked before it goes.
export async function shieldFocus(tabId, frameId) {
  if (frameId !== 0) return () => {};
  return userSheet(tabId, INERT).catch(() => () => {});
}
