// Per-tab ref bookkeeping in the service worker: the next ref number (so a new
// document's registry never reuses a number an older document handed out) and
// the small frame indexes of ref prefixes (f2e7 = ref e7 in the frame indexed 2;
// the top frame has no prefix). Kept in chrome.storage.session so a restarted
// service worker still reads old refs right.

import { onForget, refCounters } from '../../worker/tab_state.js';
import { ToolError } from '../stack/errors.js';

const mem = refCounters; // tabId -> {next, frames: {frameId: idx}, nextFrame} (tab_state.js)
const key = (tabId) => `tabbridge.refs.${tabId}`;

async function load(tabId) {
  let s = mem.get(tabId);
  if (s) return s;
  try {
    s = (await chrome.storage.session.get(key(tabId)))[key(tabId)];
  } catch { /* storage unavailable: start fresh */ }
  s = s ?? { next: 1, frames: {}, nextFrame: 1 };
  if (!mem.has(tabId)) mem.set(tabId, s);
  return mem.get(tabId);
}

function save(tabId) {
  const s = mem.get(tabId);
  if (s) chrome.storage.session.set({ [key(tabId)]: s }).catch(() => {});
}

// The saved copy goes with the tab.
onForget((tabId, dropped, why) => {
  if (why === 'gone') chrome.storage.session.remove(key(tabId)).catch(() => {});
});

export async function nextRef(tabId) {
  return (await load(tabId)).next;
}

export async function noteNext(tabId, next) {
  const s = await load(tabId);
  if (Number.isInteger(next) && next > s.next) {
    s.next = next;
    save(tabId);
  }
}

// '' for the top frame, else 'f<idx>' (assigned on first sight).
export async function framePrefix(tabId, frameId) {
  if (frameId === 0) return '';
  const s = await load(tabId);
  let idx = s.frames[frameId];
  if (idx === undefined) {
    idx = s.nextFrame++;
    s.frames[frameId] = idx;
    save(tabId);
  }
  return `f${idx}`;
}

// A ref as snapshot writes it: e7, or f2e7 in a frame.
const REF = /^(?:f(\d+))?(e\d+)$/;
export const isRef = (text) => REF.test(String(text).trim());

// 'f2e7' -> {frameId, local: 'e7'}; 'e7' -> {frameId: 0, local: 'e7'}; null if malformed.
// frameId is null when the prefix names no frame this tab ever had.
export async function parseRef(tabId, ref) {
  const m = REF.exec(String(ref).trim());
  if (!m) return null;
  if (!m[1]) return { frameId: 0, local: m[2] };
  const s = await load(tabId);
  const idx = +m[1];
  const entry = Object.entries(s.frames).find(([, i]) => i === idx);
  return { frameId: entry ? +entry[0] : null, local: m[2] };
}

// A ref a reading tool was given (snapshot {ref}, read_page {ref}) -> {frameId,
// args} for the agent, or a ToolError. No frame check: reading every frame
// is what snapshot does anyway; an acting tool goes through targets.js.
export async function readTarget(tabId, ref) {
  const parsed = await parseRef(tabId, ref);
  if (!parsed) throw new ToolError(`"${ref}" is not a ref; refs look like e12 or f1e3 (from snapshot)`);
  if (parsed.frameId === null) throw new ToolError(`stale ref ${ref}: that frame is gone — take a new snapshot`, { stale: true });
  return { frameId: parsed.frameId, args: { ref: String(ref).trim(), localRef: parsed.local } };
}
