// JavaScript dialogs (alert, confirm, prompt, beforeunload). The Page domain is
// enabled on every attach (the tab and each out-of-process iframe session), so
// Page.javascriptDialogOpening tells us a dialog is up: actions report it
// instead of hanging, and handle_dialog answers it. Open dialogs are also
// kept in chrome.storage.session: a restarted service worker still knows them
// (and keeps their tab's attach, debugger_release.js), CDP would not say again.

import { onAttach, onCdpEvent } from './cdp.js';
import { answerDialog } from './input_broker.js';
import { restoring } from './session_store.js';
import { onForget, openDialogs } from './tab_state.js';
import { cut } from './text_cut.js';

const open = openDialogs; // tabId -> {type, message, url, defaultPrompt, sessionId} (tab_state.js)
const waiters = new Map(); // tabId -> Set<fn(dialog)>
const STORE_KEY = 'tabbridge.dialogs';

// Few and rare: the whole map is written on every change.
function save() {
  chrome.storage.session.set({ [STORE_KEY]: Object.fromEntries(open) }).catch(() => {});
}

function close(tabId) {
  if (open.delete(tabId)) save();
}

// The tabs whose dialog a previous worker saw open (a Set of tabIds, once read).
const restored = chrome.storage.session.get(STORE_KEY).then((got) => {
  for (const [tabId, d] of Object.entries(got[STORE_KEY] ?? {})) {
    if (!open.has(+tabId) && d && typeof d.type === 'string') open.set(+tabId, d);
  }
  return new Set(open.keys());
}, () => new Set());
restoring(restored);
export const dialogsRestored = () => restored;

onAttach(async (tabId, send, { targetInfo }) => {
  if (targetInfo && targetInfo.type !== 'iframe' && targetInfo.type !== 'page') return;
  await send('Page.enable');
});

onCdpEvent('Page.javascriptDialogOpening', (tabId, p, sessionId) => {
  const d = { type: p.type, message: p.message ?? '', url: p.url, defaultPrompt: p.defaultPrompt, sessionId };
  open.set(tabId, d);
  save();
  for (const fn of waiters.get(tabId) ?? []) fn(d);
});

onCdpEvent('Page.javascriptDialogClosed', (tabId) => close(tabId));
// A tab gone or let go by the debugger: tab_state.js dropped its dialog.
onForget((tabId, dropped) => {
  if (dropped.includes(open)) save();
});

export const dialogOf = (tabId) => open.get(tabId) ?? null;

const shortMsg = (s) => {
  const t = String(s).replace(/\s+/g, ' ').trim();
  return cut(t, 200);
};

export function describeDialog(d) {
  if (d.type === 'beforeunload') return 'beforeunload (the page asks whether to leave it; accept leaves)';
  return `${d.type} "${shortMsg(d.message)}"${d.type === 'prompt' && d.defaultPrompt ? ` (default "${shortMsg(d.defaultPrompt)}")` : ''}`;
}

// fn(dialog) on the next dialog of tabId; returns the unsubscribe function.
export function onDialog(tabId, fn) {
  if (!waiters.has(tabId)) waiters.set(tabId, new Set());
  waiters.get(tabId).add(fn);
  return () => waiters.get(tabId)?.delete(fn);
}

// Resolves with the dialog when one opens (or is open), for racing a CDP call
// that a dialog would block. cancel() stops waiting.
export function dialogPromise(tabId) {
  let off;
  const promise = new Promise((resolve) => {
    const d = open.get(tabId);
    if (d) resolve(d);
    else off = onDialog(tabId, resolve);
  });
  return { promise, cancel: () => off?.() };
}

// {text, isError, dialog}: text in our words only (the dialog's own words are
// its document's: the tool quotes them in a block of their own,
// tools/stack/dialog_reads.js). The answer goes through the input broker, bound to the
// frame that opened the dialog: an accept is decided for that frame's site
// (a Denied when the policy does not allow it to act: the dialog stays open);
// a dismiss is the browser's own answer and goes within the call (`call`:
// {requestId, policyUrl}, docs/page_tools.md handle_dialog).
export async function handleDialog(tabId, { accept, promptText }, { call } = {}) {
  const d = open.get(tabId);
  if (!d) return { text: 'no dialog is open on this tab', isError: true };
  await answerDialog(tabId, d, { accept, promptText }, { call });
  close(tabId);
  const verb = accept ? 'accepted' : 'dismissed';
  let extra = '';
  if (d.type === 'prompt' && accept) extra = typeof promptText === 'string' ? ` with "${shortMsg(promptText)}"` : ' with its default text';
  return { text: `${verb} the ${d.type} dialog${extra}`, dialog: d };
}
