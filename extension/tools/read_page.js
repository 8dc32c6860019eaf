// read_page {mode, selector?|ref?, sameOrigin?, include?, exclude?, maxChars?, cursor?}: the page as
// markdown of its main content, plain text, its links, facts about it (info),
// the user's selection, or (html capability) the outer HTML of an element.
// ref: one element a snapshot gave (in its frame); an element of a folded
// run's item (page/agent/fold.js): that whole item.
// Long output comes a window at a time: the answer carries nextCursor, which
// the model passes back as cursor for the next window.

import { ToolError } from './stack/errors.js';
import { inject, mainResult } from './stack/inject.js';
import { pageTool } from './stack/page_tool.js';
import { dataResult, documentResult } from './stack/results.js';
import { decodeCursor, encodeCursor } from '../worker/read_format.js';
import { PAGE_TOOLS } from '../worker/tool_catalog.js';
import { readTarget } from './shared/refs.js';
import { READ_LOAD_WAIT_MS, topDocumentParsed } from '../worker/page_load.js';

const DEFAULT_MAX_CHARS = PAGE_TOOLS.read_page.defaults.maxChars;
const MAX_MAX_CHARS = 200000;
const PAGED = new Set(['markdown', 'text', 'links', 'html']);

async function readPageTool(tabId, { mode = 'markdown', selector, ref, sameOrigin = false, include, exclude, maxChars, cursor }, { tab }) {
  const limit = Math.min(maxChars ?? DEFAULT_MAX_CHARS, MAX_MAX_CHARS);
  const byRef = ref !== undefined && ref !== null && ref !== '';
  if (byRef && selector !== undefined && selector !== null && selector !== '') throw new ToolError('pass one of ref or selector, not both');
  const target = byRef ? await readTarget(tabId, ref) : { frameId: 0, args: {} };

  if (mode === 'selection') return readSelection(tabId);

  let offset = 0;
  if (cursor !== undefined) {
    const c = decodeCursor(cursor);
    if (!c || !Number.isInteger(c.o) || c.o < 0) {
      throw new ToolError('cursor is not one read_page gave out: call read_page without cursor to start over');
    }
    if (c.m !== mode || (c.s ?? null) !== (selector ?? null) || (c.r ?? null) !== (byRef ? String(ref) : null) || (c.so ?? false) !== sameOrigin ||
      (c.in ?? null) !== (include || null) || (c.ex ?? null) !== (exclude || null)) {
      throw new ToolError(`cursor belongs to read_page with mode "${c.m}"${c.s ? ` and selector "${c.s}"` : ''}${c.r ? ` and ref "${c.r}"` : ''}${c.in ? ` include "${c.in}"` : ''}${c.ex ? ` exclude "${c.ex}"` : ''}: ` +
        'repeat those arguments with it, or call read_page without cursor');
    }
    if (c.u !== stripHash(tab.url)) {
      throw new ToolError('the tab has navigated since this cursor was given: call read_page without cursor to read the new page');
    }
    offset = c.o;
  }

  // A page still loading: its parsed document, or what it has after the wait (said below).
  const parsed = cursor !== undefined || mode === 'info' || await topDocumentParsed(tabId, READ_LOAD_WAIT_MS);
  const r = mainResult(await inject(tabId, {
    frameIds: [target.frameId],
    agentOp: 'readPage',
    agentArgs: { mode, selector, ...target.args, sameOrigin, include, exclude, offset, maxChars: limit },
  }));
  if (!r) throw new ToolError('the page gave no answer (it may be navigating): call read_page again');
  if (r.error && byRef) throw new ToolError(r.error, { stale: !!r.stale });
  if (r.error) throw new ToolError(`${r.error}: check it with snapshot or read_page mode "html"/"links", or omit selector`);

  if (mode === 'info') {
    const i = r.info;
    const lines = [
      `URL: ${i.url}`,
      `Title: ${i.title}`,
      `Ready state: ${i.readyState}`,
      `Content type: ${i.contentType}${i.lang ? `, language ${i.lang}` : ''}`,
      `Viewport: ${i.viewport.width}×${i.viewport.height}; scrolled to ${i.scroll.x},${i.scroll.y} of ${i.scroll.width}×${i.scroll.height}`,
      `Contains: ${i.counts.links} links, ${i.counts.images} images, ${i.counts.forms} forms, ${i.counts.iframes} frames, ` +
        `${i.counts.headings} headings; ${i.textLength} characters of text`,
    ];
    return dataResult(lines.join('\n'), i);
  }

  if (!PAGED.has(mode)) throw new ToolError(`unknown mode "${mode}"`);
  const meta = { url: r.url, title: r.title, mode, offset: r.offset, length: r.body.length, totalChars: r.total };
  if (selector) meta.selector = selector;
  if (byRef) meta.ref = String(ref);
  if (mode === 'markdown' && r.root) meta.root = r.root;
  if (mode === 'links') Object.assign(meta, { count: r.count, totalLinks: r.totalItems });
  let body = r.body;
  if (r.nextOffset !== null && r.nextOffset !== undefined) {
    meta.nextCursor = encodeCursor({ m: mode, o: r.nextOffset, s: selector ?? null, ...(byRef ? { r: String(ref) } : {}), so: sameOrigin, u: stripHash(r.url),
      ...(include ? { in: include } : {}), ...(exclude ? { ex: exclude } : {}) });
    const left = r.total - r.nextOffset;
    body = `${body.replace(/\s+$/, '')}\n\n[… ${left} more characters: call read_page with cursor "${meta.nextCursor}" to continue]`;
  }
  if (!r.total) body = emptyMessage(mode, byRef ? `ref ${ref}` : selector, sameOrigin || include || exclude);
  else if (r.offset >= r.total) body = '[end of page: nothing after this cursor]';
  if (!parsed) {
    meta.loading = true;
    body = `[the page is still loading — this is what it has so far; wait_for, then read again]\n\n${body}`;
  }
  return documentResult(body, meta);
}

export const tool = pageTool(readPageTool, { name: 'read_page', pinTop: true });

const stripHash = (u) => String(u ?? '').replace(/#.*$/, '');

function emptyMessage(mode, selector, filtered) {
  const where = selector ? `inside "${selector}"` : 'on this page';
  if (mode === 'links') return `No links ${where}${filtered ? ' that sameOrigin, include or exclude let through' : ''}.`;
  return `No ${mode === 'html' ? 'HTML' : 'text'} ${where} (the page may still be loading: try wait_for, or read_page mode "info").`;
}

async function readSelection(tabId) {
  const results = await inject(tabId, { agentOp: 'selection', allFrames: true });
  const hit = results
    .filter((x) => x.result?.text)
    .sort((a, b) => (a.frameId === 0 ? -1 : b.frameId === 0 ? 1 : 0))[0];
  const text = hit?.result.text ?? '';
  const structured = { text, length: text.length };
  if (hit && hit.frameId !== 0) structured.frameUrl = hit.result.url;
  if (!text && results.some((x) => x.result?.secret)) {
    return dataResult('The focus is in a password field: what is selected in it is not shown.', { ...structured, secret: true });
  }
  return dataResult(text ? text : 'Nothing is selected in this tab.', structured);
}
