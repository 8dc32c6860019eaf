// snapshot: the compact accessibility view of a tab (docs/protocol.md "Page
// tools"). The top frame's agent walks its document, same-origin iframes and
// shadow roots; each cross-origin iframe is a placeholder that is filled by
// running the agent in that frame (its refs get the frame's prefix, f1e3).
// Long results are paged: the cursor points into the cached line list.

import { dialogOf, describeDialog } from '../worker/dialogs.js';
import { snapshotCache } from '../worker/tab_state.js';
import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { getTab } from './stack/tab.js';
import { framePrefix, runAgent, runAgentFrames } from './shared/targets.js';
import { noteNext } from './shared/refs.js';
import { PAGE_TOOLS } from '../worker/tool_catalog.js';
import { READ_LOAD_WAIT_MS, topDocumentParsed } from '../worker/page_load.js';

const DEFAULT_MAX_CHARS = PAGE_TOOLS.snapshot.defaults.maxChars;
const MAX_FRAMES = 40;
const SNAPSHOT_TIMEOUT_MS = 10000;

const cache = snapshotCache; // tabId -> {id, lines} (tab_state.js drops it with the tab)
let snapCounter = 0;

const withPrefix = (line, prefix) => (prefix ? line.replace(/\[ref=(e\d+)\]/g, `[ref=${prefix}$1]`) : line);

// Every frame snapshots its own document at once (same-origin child frames
// answer {inline}: their parent walks them). Then each cross-origin frame
// announces itself to its parent window, and each parent tells which of its
// <iframe> placeholders the announcement came from.
async function fullSnapshot(tabId) {
  const results = await runAgentFrames(tabId, 'all', 'snapshot', {}, { timeoutMs: SNAPSHOT_TIMEOUT_MS });
  const byFrame = new Map();
  for (const { frameId, result } of results) {
    if (result && Array.isArray(result.items)) {
      byFrame.set(frameId, result);
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
  if (parents.length && byFrame.size > 1) {
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
  const assemble = async (frameId) => {
    seen.add(frameId);
    const prefix = await framePrefix(tabId, frameId);
    const lines = [];
    for (const it of byFrame.get(frameId).items) {
      if (typeof it === 'string') {
        lines.push(withPrefix(it, prefix));
        continue;
      }
      const child = children.get(`${frameId}:${it.frameRef}`);
      if (child === undefined || seen.has(child) || !byFrame.has(child) || seen.size > MAX_FRAMES) continue;
      const sub = await assemble(child);
      if (!sub.length) continue;
      lines.push(withPrefix(it.head, prefix));
      const pad = '  '.repeat(it.depth);
      for (const l of sub) lines.push(pad + l);
    }
    return lines;
  };
  return assemble(0);
}

function parseCursor(cursor) {
  const m = /^s(\d+):(\d+)$/.exec(String(cursor ?? ''));
  return m ? { id: +m[1], offset: +m[2] } : null;
}

async function snapshot(tabId, { maxChars = DEFAULT_MAX_CHARS, cursor } = {}) {
  // A page still loading: its parsed document, or what it has after the wait (said in the head).
  const parsed = cursor !== undefined || await topDocumentParsed(tabId, READ_LOAD_WAIT_MS);
  const tab = await getTab(tabId);
  let head = `url: ${tab.url || tab.pendingUrl || ''}\ntitle: ${tab.title ?? ''}\n`;
  if (!parsed) head += 'loading: the page is still loading — this is what it has so far (wait_for, then snapshot again)\n';
  const dialog = dialogOf(tabId);
  if (dialog) {
    return `${head}dialog: ${describeDialog(dialog)} is open and blocks the page — call handle_dialog\n`;
  }
  let lines;
  let id;
  let offset = 0;
  if (cursor !== undefined) {
    const c = parseCursor(cursor);
    if (!c) throw new ToolError(`bad cursor "${cursor}" — pass the cursor a snapshot returned, or none`);
    offset = c.offset;
    const cached = cache.get(tabId);
    if (cached && cached.id === c.id) ({ lines, id } = cached);
  }
  if (!lines) {
    lines = await fullSnapshot(tabId);
    id = ++snapCounter;
    cache.set(tabId, { id, lines });
  }
  if (!lines.length) lines = ['- (no visible content)'];
  if (offset >= lines.length) throw new ToolError(`cursor is past the end (${lines.length} lines) — take a new snapshot`);
  let size = head.length;
  let end = offset;
  while (end < lines.length && (end === offset || size + lines[end].length + 1 <= maxChars - 80)) {
    size += lines[end].length + 1;
    end++;
  }
  if (offset > 0) head += `(lines ${offset + 1}-${end} of ${lines.length})\n`;
  let text = head + lines.slice(offset, end).join('\n') + '\n';
  if (end < lines.length) {
    text += `(${lines.length - end} more lines — call snapshot with cursor "s${id}:${end}")\n`;
  }
  return text;
}

// It can do without the debugger (a tab DevTools holds): the agent runs through chrome.scripting.
export const tool = pageTool(async (tabId, args) => textResult(await snapshot(tabId, args)), { debugger: 'optional', name: 'snapshot', pinTop: true });
