// download_file {url? | ref? | selector?, suggestedName?}: downloads with chrome.downloads
// into <the user's Downloads>/tabbridge/ (the one place an extension can write
// to, so that is tabbridge's folder), under a sanitized name, never
// overwriting (uniquify), never past MAX_BYTES; suggestedName (sanitized the
// same way) instead of the server's or the link's name; answers once the file is
// complete with its absolute path, size and MIME type.

import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { progressReporter } from './stack/progress.js';
import { dataResult } from './stack/results.js';
import { targetInfo } from './shared/targets.js';
import { sanitizeFileName } from './shared/file_name.js';
import { Deadlines } from '../worker/protocol.js';
import { PAGE_TOOLS } from '../worker/tool_catalog.js';
import { siteKey } from '../worker/site_key.js';

export const DOWNLOAD_SUBFOLDER = 'tabbridge';
export const MAX_BYTES = 100 * 1024 * 1024;
// Gives up a margin before the host does, so the answer still reaches it.
const WAIT_MS = PAGE_TOOLS.download_file.deadlineMs - Deadlines.PAGE_MARGIN_MS;
const POLL_MS = 250;
const DANGER_GRACE_MS = 1000;
const OK_DANGER = new Set(['safe', 'accepted', 'allowlistedByPolicy']);

const ours = new Map(); // downloadId -> {name: string|null}
const oursByUrl = new Map(); // url -> {name} until download() has returned the id

// Must run synchronously at the service worker's top level.
export function registerListeners() {
  chrome.downloads.onDeterminingFilename.addListener((item, suggest) => {
    const mine = ours.get(item.id) ?? (item.byExtensionId === chrome.runtime.id ? oursByUrl.get(item.url) : undefined);
    if (!mine) return; // the user's own download: Chrome decides
    const name = sanitizeFileName(mine.name || item.filename);
    suggest({ filename: `${DOWNLOAD_SUBFOLDER}/${name}`, conflictAction: 'uniquify' });
  });
}

async function downloadTool(tabId, { url, ref, selector, suggestedName }, ctx) {
  const { tab } = ctx;
  const element = ref !== undefined || selector !== undefined; // ref and selector: targets.js checkTarget
  if ((url !== undefined) === element) throw new ToolError('give exactly one of url, ref (from snapshot) or selector (a link, image, video…)');

  let source;
  let name = null;
  if (url !== undefined) {
    source = resolveUrl(url, tab.url || '');
  } else {
    const info = await targetInfo(tabId, { ref, selector });
    const found = info.href || info.src;
    if (!found) {
      throw new ToolError(`${info.desc ?? `<${info.tag}>`} has no link or source to download: point at a link, image, video or its source`);
    }
    source = resolveUrl(found, tab.url || '');
    // The host checked this page's site, not the link's: a link to another
    // site must come back as url, where the host's policy decides it.
    const linkSite = siteKey(source);
    if (ctx.policyUrl && !source.startsWith('data:') && linkSite !== siteKey(ctx.policyUrl)) {
      throw new ToolError(`the link goes to another site (${linkSite}): pass it as url so the policy can check that site`);
    }
    name = info.download || null;
  }
  if (typeof suggestedName === 'string' && suggestedName.trim()) name = suggestedName; // sanitizeFileName'd when Chrome asks

  const report = progressReporter(ctx);
  report(0, undefined, `downloading ${source}`);
  oursByUrl.set(source, { name });
  let id;
  try {
    id = await chrome.downloads.download({ url: source, conflictAction: 'uniquify', saveAs: false });
  } catch (e) {
    throw new ToolError(`cannot download ${source}: ${e.message}`);
  } finally {
    oursByUrl.delete(source);
  }
  ours.set(id, { name });
  try {
    const item = await waitForDownload(id, ctx.signal, report);
    const structured = { path: item.filename, bytes: item.fileSize || item.bytesReceived, mimeType: item.mime || null, url: item.finalUrl || source };
    return dataResult(`downloaded ${structured.bytes} bytes${structured.mimeType ? ` (${structured.mimeType})` : ''} to ${structured.path}`, structured);
  } finally {
    ours.delete(id);
  }
}

export const tool = pageTool(downloadTool);

function resolveUrl(url, base) {
  let parsed;
  try {
    parsed = /^(https?|data|file):/i.test(url) ? new URL(url) : new URL(url, base);
  } catch {
    throw new ToolError(`"${url}" is not a URL: give an absolute http(s) URL`);
  }
  if (parsed.protocol === 'blob:') {
    throw new ToolError('this is a blob: URL that only the page can read: use evaluate to get its content, or download the original URL');
  }
  if (!['http:', 'https:', 'data:'].includes(parsed.protocol)) {
    throw new ToolError(`cannot download "${url}": only http, https and data URLs can be downloaded`);
  }
  return parsed.href;
}

// Resolves with the completed DownloadItem; cancels and throws ToolError on
// interruption, a dangerous-file hold, the size cap, the deadline or abort.
function waitForDownload(id, signal, report) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let dangerSince = null;
    let finished = false;
    let poll = null;
    const finish = (fn) => {
      if (finished) return;
      finished = true;
      clearInterval(poll);
      chrome.downloads.onChanged.removeListener(onChanged);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const fail = (message) => finish(() => {
      chrome.downloads.cancel(id).catch(() => {});
      reject(new ToolError(message));
    });
    const check = async () => {
      let item;
      try {
        [item] = await chrome.downloads.search({ id });
      } catch (e) {
        fail(`the download went away: ${e.message}`);
        return;
      }
      if (finished) return;
      if (!item) {
        fail('the download was removed before it finished');
        return;
      }
      if (item.state === 'complete') {
        finish(() => resolve(item));
        return;
      }
      if (item.state === 'interrupted') {
        finish(() => reject(new ToolError(explainInterrupt(item))));
        return;
      }
      const size = Math.max(item.totalBytes || 0, item.bytesReceived || 0, item.fileSize || 0);
      if (size > MAX_BYTES) {
        fail(`the file is larger than the ${MAX_BYTES / 1024 / 1024} MB limit (${item.totalBytes > 0 ? `${item.totalBytes} bytes` : 'still growing'}); download cancelled`);
        return;
      }
      if (item.danger && !OK_DANGER.has(item.danger)) {
        dangerSince ??= Date.now();
        if (Date.now() - dangerSince >= DANGER_GRACE_MS) {
          fail(`the browser held the download as dangerous (${item.danger}) and it was cancelled`);
          return;
        }
      }
      if (Date.now() - started > WAIT_MS) {
        fail(`the download did not finish within ${WAIT_MS / 1000} s (${item.bytesReceived} bytes so far); cancelled`);
        return;
      }
      if (item.bytesReceived > 0) report(item.bytesReceived, item.totalBytes > 0 ? item.totalBytes : undefined, `${item.bytesReceived} bytes`);
    };
    const onChanged = (delta) => {
      if (delta.id === id && (delta.state || delta.danger || delta.error || delta.totalBytes)) check();
    };
    const onAbort = () => fail('cancelled');
    chrome.downloads.onChanged.addListener(onChanged);
    signal?.addEventListener('abort', onAbort, { once: true });
    poll = setInterval(check, POLL_MS);
    check();
  });
}

const INTERRUPT_HINTS = {
  SERVER_BAD_CONTENT: 'the server answered with an error (e.g. 404) instead of the file — check the URL',
  SERVER_FORBIDDEN: 'the server refused (403) — the file may need a login in this browser',
  SERVER_UNAUTHORIZED: 'the server wants authentication (401)',
  NETWORK_FAILED: 'the network failed — check that the server is reachable',
  NETWORK_TIMEOUT: 'the network timed out',
  NETWORK_DISCONNECTED: 'the network is disconnected',
  SERVER_FAILED: 'the server failed while sending the file',
  FILE_NO_SPACE: 'the disk is full',
  FILE_ACCESS_DENIED: 'the Downloads folder is not writable',
  FILE_TOO_LARGE: 'the file is too large for the file system',
  FILE_BLOCKED: 'the browser or system policy blocked this file',
  FILE_VIRUS_INFECTED: 'the virus scanner rejected the file',
  USER_CANCELED: 'the download was cancelled',
};

function explainInterrupt(item) {
  const why = INTERRUPT_HINTS[item.error] ?? 'see the reason code';
  return `download of ${item.finalUrl || item.url} failed: ${item.error} — ${why}`;
}
