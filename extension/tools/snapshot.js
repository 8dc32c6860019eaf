// snapshot: the compact accessibility view of a tab (docs/protocol.md "Page
// tools"). The top frame's agent walks its document, same-origin iframes and
// shadow roots; each cross-origin iframe is a placeholder that is filled by
// running the agent in that frame (its refs get the frame's prefix, f1e3).
// Long results are paged: the cursor points into the cached line list. The
// first page of a page too long for one answer is its overview instead: the
// outline and what is on screen (shared/snapshot_overview.js); the cursor it
// hands out starts the whole list, in document order, at its first line. On
// a page of more elements than maxChars / 2 the agents walk only what the
// overview shows (page/agent/snapshot.js "overview"): that first answer
// costs what the screen holds, and the cursor's first page walks it all.

import { dialogOf } from '../worker/dialogs.js';
import { dialogRead, dialogReadOf } from './stack/dialog_reads.js';
import { noteRead, readOf, titleRead, withReads } from './stack/reads.js';
import { requestHost } from '../worker/native_port.js';
import { HostRequest } from '../worker/protocol.js';
import { sameSite, siteKey } from '../worker/site_key.js';
import { snapshotCache } from '../worker/tab_state.js';
import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { getTab } from './stack/tab.js';
import { framePrefix, runAgent, runAgentFrames } from './shared/targets.js';
import { noteNext, readTarget } from './shared/refs.js';
import { overview } from './shared/snapshot_overview.js';
import { withPrefix } from './shared/frame_refs.js';
import { PAGE_TOOLS } from '../worker/tool_catalog.js';
import { READ_LOAD_WAIT_MS, topDocumentParsed } from '../worker/page_load.js';

const DEFAULT_MAX_CHARS = PAGE_TOOLS.snapshot.defaults.maxChars;
const MAX_FRAMES = 40;
const SNAPSHOT_TIMEOUT_MS = 10000;

const cache = snapshotCache; // tabId -> {id, lines, onScreen, viewport, partial, reads} (tab_state.js drops it with the tab)
let snapCounter = 0;

// Said once at the head of an answer that holds a folded run.
const FOLD_NOTE = '(folded: "- N items like:" gives one item\'s lines, {1} {2}… where items differ, then a line per item: its refs ' +
  '(one per [ref], in order; e5-8 is e5 e6 e7 e8), ":", its values {1}|{2}…; snapshot {ref} shows an item, or the run by its header\'s ref, in full)\n';
const FOLD_HEAD = /^ *- \d+ items like(?: \[ref=\w+\])?:$/m;

// Every frame snapshots its own document at once (same-origin child frames
// answer {inline}: their parent walks them). Then each cross-origin frame
// announces itself to its parent window, and each parent tells which of its
// <iframe> placeholders the announcement came from.
// overview: walk only what the overview shows in documents of more elements.
// -> {lines, onScreen: indexes of the lines on screen, viewport: the top
// frame's scroll, partial: whether some agent left parts out}
// target: {frameId, args} of a ref (snapshot {ref}): that frame only, the element's region in full.
// readable(url): whether the session may read a child frame's document (the
// host decides): a frame it may not is a line saying so, none of its text.
// -> also reads: the {documentId, url} of every frame whose lines are in it.
async function fullSnapshot(tabId, overview = 0, target = null, readable = async () => true) {
  const args = target ? target.args : overview ? { overview } : {};
  const results = await runAgentFrames(tabId, target ? [target.frameId] : 'all', 'snapshot', args, { timeoutMs: SNAPSHOT_TIMEOUT_MS });
  if (target) {
    const r = results[0]?.result;
    if (r?.error) throw new ToolError(r.error, { stale: !!r.stale });
    if (r && Array.isArray(r.items)) {
      await noteNext(tabId, r.next);
      const prefix = await framePrefix(tabId, target.frameId);
      const lines = r.items.filter((it) => typeof it === 'string').map((it) => withPrefix(it, prefix));
      return { lines, onScreen: [], viewport: r.viewport, partial: false, ref: target.args.ref, reads: [results[0].read] };
    }
  }
  const byFrame = new Map();
  const readOf = new Map(); // frameId -> {documentId, url}
  const withheld = new Map(); // frameId -> the site of a frame the session may not read
  for (const { frameId, result, read } of results) {
    if (result && Array.isArray(result.items)) {
      if (frameId !== 0 && !(await readable(read?.url ?? ''))) {
        withheld.set(frameId, siteName(read?.url ?? ''));
        continue;
      }
      byFrame.set(frameId, result);
      readOf.set(frameId, read);
      await noteNext(tabId, result.next);
    }
  }
  const top = byFrame.get(0);
  if (!top) {
    const r0 = results.find((r) => r.frameId === 0)?.result;
    throw new ToolError(r0?.error ?? 'could not read the page — it may still be loading; try again');
  }
  // placeholder `${frameId}:${ref}` -> child frameId
  const children = new Map();
  const parents = [...byFrame].filter(([, r]) => r.items.some((it) => typeof it === 'object'));
  if (parents.length && byFrame.size + withheld.size > 1) {
    const ann = await runAgentFrames(tabId, 'all', 'announce', {}).catch(() => []);
    const tokenFrame = new Map(ann.filter((x) => x.result?.token).map((x) => [x.result.token, x.frameId]));
    const tokens = [...tokenFrame.keys()];
    await Promise.all(parents.map(async ([frameId, r]) => {
      const frameRefs = r.items.filter((it) => typeof it === 'object').map((it) => it.frameRef);
      try {
        const { map } = await runAgent(tabId, frameId, 'resolveFrames', { tokens, frameRefs });
        for (const [token, ref] of Object.entries(map)) children.set(`${frameId}:${ref}`, tokenFrame.get(token));
      } catch (e) {
        if (!(e instanceof ToolError)) throw e;
      }
    }));
  }
  const seen = new Set();
  // -> {lines, onScreen} of one frame, its child frames' lines in place
  // (theirs on screen only where the <iframe> is).
  const assemble = async (frameId) => {
    seen.add(frameId);
    const prefix = await framePrefix(tabId, frameId);
    const { items, view = [] } = byFrame.get(frameId);
    const shown = new Set(view);
    const lines = [];
    const onScreen = [];
    for (let i = 0; i < items.length; i++) {
      const it = items[i];
      if (typeof it === 'string') {
        if (shown.has(i)) onScreen.push(lines.length);
        lines.push(prefix ? withPrefix(it, prefix) : it);
        continue;
      }
      const child = children.get(`${frameId}:${it.frameRef}`);
      if (withheld.has(child)) {
        lines.push(withPrefix(it.head, prefix), `${'  '.repeat(it.depth)}- (a frame of ${withheld.get(child)}: not read — the policy keeps it from this session)`);
        continue;
      }
      if (child === undefined || seen.has(child) || !byFrame.has(child) || seen.size > MAX_FRAMES) continue;
      const sub = await assemble(child);
      if (!sub.lines.length) continue;
      lines.push(withPrefix(it.head, prefix));
      const pad = '  '.repeat(it.depth);
      if (it.inView) for (const j of sub.onScreen) onScreen.push(lines.length + j);
      for (const l of sub.lines) lines.push(pad + l);
    }
    return { lines, onScreen };
  };
  const partial = [...byFrame.values()].some((r) => r.pruned);
  return { ...await assemble(0), viewport: top.viewport, partial, reads: [...readOf.values()].filter(Boolean) };
}

const thousands = (n) => n.toLocaleString('en-US');

// A site as the host names it (localhost:8000), for a frame left out.
function siteName(url) {
  try {
    return new URL(url).host || siteKey(url) || 'another site';
  } catch {
    return 'another site';
  }
}

// A page that starts among a folded run's items: its header and template
// again, so that the items read on their own.
function runAround(lines, offset) {
  const at = lines[offset];
  if (!offset || at === undefined) return '';
  const pad = at.length - at.trimStart().length;
  if (pad < 2 || at.startsWith('- ', pad)) return '';
  for (let i = offset - 1; i >= 0; i--) {
    const d = lines[i].length - lines[i].trimStart().length;
    if (d >= pad) continue;
    if (d !== pad - 2 || !FOLD_HEAD.test(lines[i])) return '';
    const shown = [lines[i]];
    for (let k = i + 1; k < offset && lines[k].startsWith('- ', pad); k++) shown.push(lines[k]);
    return `${shown.join('\n')}\n`;
  }
  return '';
}

// The note on how to read folded runs, when the snapshot has one.
function foldNote(snap) {
  snap.folded ??= snap.lines.some((l) => l.endsWith(':') && FOLD_HEAD.test(l));
  return snap.folded ? FOLD_NOTE : '';
}

// Where the screen is on the page, for the overview's head.
function screenAt(viewport) {
  if (!viewport || !(viewport.height > viewport.h)) return '';
  const { y, h, height } = viewport;
  return ` (y ${thousands(y)}-${thousands(Math.min(y + h, height))} of ${thousands(height)} px)`;
}

function parseCursor(cursor) {
  const m = /^s(\d+):(\d+)$/.exec(String(cursor ?? ''));
  return m ? { id: +m[1], offset: +m[2] } : null;
}

// -> {text, reads?} or {blocks: [{text, reads}]}: reads, the documents its lines and head were read from
// (none: the call's ledger, stack/reads.js).
async function snapshot(tabId, { maxChars = DEFAULT_MAX_CHARS, cursor, ref } = {}, readable = undefined) {
  const target = ref !== undefined && ref !== '' ? await readTarget(tabId, ref) : null;
  // A page still loading: its parsed document, or what it has after the wait (said in the head).
  const parsed = cursor !== undefined || await topDocumentParsed(tabId, READ_LOAD_WAIT_MS);
  const tab = await getTab(tabId);
  let head = `url: ${tab.url || tab.pendingUrl || ''}\ntitle: ${titleRead(tabId, tab)}\n`;
  const headRead = readOf(null, tab.url || tab.pendingUrl || ''); // the title's
  if (!parsed) head += 'loading: the page is still loading — this is what it has so far (wait_for, then snapshot again)\n';
  const dialog = dialogOf(tabId);
  if (dialog) {
    // Two blocks: ours (the head is the top document's), and the dialog's own
    // words, which are the document's that opened it — a frame the session
    // may not read has them left out by the host, and the rest still says a
    // dialog blocks the page.
    return {
      blocks: [
        { text: `${head}dialog: a ${dialog.type} dialog is open and blocks the page — call handle_dialog; it says:\n`, reads: [headRead] },
        { text: `${dialogRead(tabId, dialog)}\n`, reads: [dialogReadOf(dialog)] },
      ],
    };
  }
  let snap;
  let offset = 0;
  if (cursor !== undefined) {
    const c = parseCursor(cursor);
    if (!c) throw new ToolError(`bad cursor "${cursor}" — pass the cursor a snapshot returned, or none`);
    offset = c.offset;
    const cached = cache.get(tabId);
    // An overview that left parts out is walked whole for its cursor.
    if (cached && cached.id === c.id && !cached.partial) snap = cached;
    // Lines kept from an earlier call are still those documents' words (stack/reads.js).
    for (const r of snap?.reads ?? []) noteRead(tabId, r);
  }
  if (!snap) {
    snap = { id: ++snapCounter, ...await fullSnapshot(tabId, cursor === undefined && !target ? Math.floor(maxChars / 2) : 0, target, readable) };
    cache.set(tabId, snap);
  }
  if (snap.ref) head += `region: ${snap.ref} in full, nothing folded\n`;
  const { id } = snap;
  const lines = snap.lines.length ? snap.lines : ['- (no visible content)'];
  if (offset >= lines.length) throw new ToolError(`cursor is past the end (${lines.length} lines) — take a new snapshot`);
  if (cursor === undefined && !snap.ref) {
    const total = lines.reduce((n, l) => n + l.length + 1, head.length);
    if (snap.partial || total > maxChars - 80) return { text: overviewPage(head + foldNote(snap), snap, maxChars), reads: [...snap.reads, headRead] };
  }
  head += foldNote(snap);
  const around = runAround(lines, offset);
  const n = lines.length;
  const range = (end) => (offset > 0 ? `(lines ${offset + 1}-${end} of ${n})\n` : '');
  const more = (end) => (end < n ? `(${n - end} more lines — call snapshot with cursor "s${id}:${end}")\n` : '');
  // Room for the lines: maxChars less the head, and the range and cursor lines at their longest.
  const room = maxChars - head.length - around.length - range(n).length - more(n - 1).length - String(n).length;
  let size = 0;
  let end = offset;
  while (end < n && (end === offset || size + lines[end].length + 1 <= room)) {
    size += lines[end].length + 1;
    end++;
  }
  return { text: head + range(end) + around + lines.slice(offset, end).join('\n') + '\n' + more(end), reads: [...snap.reads, headRead] };
}

// The first page of a page too long for maxChars: its outline and what is on
// screen; the cursor starts the whole page in document order.
function overviewPage(head, { id, lines, onScreen, viewport, partial }, maxChars) {
  const count = partial ? '' : `, ${thousands(lines.length)} lines`;
  const more = `(the whole page${count} in document order: call snapshot with cursor "s${id}:0"; or scroll and snapshot again)\n`;
  const intro = `(a long page: this first part shows its landmarks, headings and what is on screen${screenAt(viewport)}; … marks lines left out)\n`;
  const cutNote = '(what is on screen and the outline did not all fit in maxChars: the cursor has it all)\n';
  const shown = overview(lines, onScreen, maxChars - head.length - intro.length - more.length - cutNote.length);
  return `${head}${intro}${shown.lines.join('\n')}\n${shown.cut ? cutNote : ''}${more}`;
}

// It can do without the debugger (a tab DevTools holds): the agent runs through chrome.scripting.
// The answer's one block names the documents its lines came from: the top
// document and the frames the session may read (readableFrames), never the
// others', whose text it leaves out.
async function snapshotTool(tabId, args, ctx) {
  const { text, reads, blocks } = await snapshot(tabId, args, readableFrames(ctx));
  if (blocks) return { content: blocks.map((b) => withReads({ type: 'text', text: b.text }, b.reads)) };
  const r = textResult(text);
  return reads ? { ...r, content: r.content.map((b) => withReads(b, reads)) } : r;
}

// Whether the session may read a frame's document: its top document's site
// without asking (the host checked it for this call), any other asked of the
// host once per call (HostRequest.POLICY_DECIDE); no answer is no.
function readableFrames(ctx) {
  const asked = new Map();
  return (url) => {
    if (!url) return Promise.resolve(false);
    if (sameSite(url, ctx?.policyUrl)) return Promise.resolve(true);
    const site = siteKey(url);
    if (!asked.has(site)) {
      asked.set(site, requestHost(HostRequest.POLICY_DECIDE, { call: ctx?.requestId, url, capability: 'read' })
        .then((v) => v?.allowed === true, () => false));
    }
    return asked.get(site);
  };
}

export const tool = pageTool(snapshotTool, { debugger: 'optional', name: 'snapshot', pinTop: true });
