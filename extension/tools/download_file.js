// download_file {url? | ref? | selector?, suggestedName?}: downloads with chrome.downloads
// into <the user's Downloads>/tabbridge/ (the one place an extension can write
// to, so that is tabbridge's folder), under a sanitized name, never
// overwriting (uniquify), never past MAX_BYTES; suggestedName (sanitized the
// same way) instead of the server's or the link's name; answers once the file is
// complete with its absolute path, size and MIME type.
//
// A server may redirect the download to another site, one the policy denies
// (docs/policy.md "Threat model"): Chrome's choice of a file name waits while
// the host decides that final URL for the call's session (policy.decide); a
// denied one is cancelled and erased before the file is kept, and the answer
// is the denial, naming where it was redirected. The audit line names the
// link a ref/selector resolved to and the final URL (_meta WENT_TO_META).

import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { progressReporter } from './stack/progress.js';
import { dataResult, errorResult } from './stack/results.js';
import { targetInfo } from './shared/targets.js';
import { sanitizeFileName } from './shared/file_name.js';
import { requestHost } from '../worker/native_port.js';
import { Deadlines, HostRequest, WENT_TO_META } from '../worker/protocol.js';
import { PAGE_TOOLS } from '../worker/tool_catalog.js';
import { siteKey } from '../worker/site_key.js';

export const DOWNLOAD_SUBFOLDER = 'tabbridge';
export const MAX_BYTES = 100 * 1024 * 1024;
// Gives up a margin before the host does, so the answer still reaches it.
const WAIT_MS = PAGE_TOOLS.download_file.deadlineMs - Deadlines.PAGE_MARGIN_MS;
const POLL_MS = 250;
const DANGER_GRACE_MS = 1000;
const OK_DANGER = new Set(['safe', 'accepted', 'allowlistedByPolicy']);

const ours = new Map(); // downloadId -> Mine
const oursByUrl = new Map(); // url -> Mine until download() has returned the id

// Must run synchronously at the service worker's top level.
export function registerListeners() {
  chrome.downloads.onDeterminingFilename.addListener((item, suggest) => {
    const mine = ours.get(item.id) ?? (item.byExtensionId === chrome.runtime.id ? oursByUrl.get(item.url) : undefined);
    if (!mine) return undefined; // the user's own download: Chrome decides
    const name = sanitizeFileName(mine.name || item.filename);
    const keep = () => suggest({ filename: `${DOWNLOAD_SUBFOLDER}/${name}`, conflictAction: 'uniquify' });
    // Where the server sent it, now that its headers are in: kept only if allowed there.
    mine.decide(item.finalUrl || item.url).then((allowed) => { if (allowed) keep(); });
    return true; // suggest() comes once the host has decided
  });
}

// One download of ours: its name, and the decision on its final URL.
// decide(url) resolves true (keep it) or false (denied: `denied` resolves
// with the denial to answer; the tool cancels and erases the download).
function newMine(name, source, ctx) {
  let deny;
  const mine = { name, finalUrl: source, denied: new Promise((resolve) => { deny = resolve; }) };
  mine.decide = async (finalUrl) => {
    mine.finalUrl = finalUrl;
    if (finalUrl.startsWith('data:') || siteKey(finalUrl) === siteKey(source)) return true; // the site the call was checked for
    let verdict;
    try {
      verdict = await requestHost(HostRequest.POLICY_DECIDE, { call: ctx.requestId, url: finalUrl, capability: 'download' });
    } catch (e) {
      verdict = { allowed: false, result: errorResult(`the host could not decide it (${e.message})`) };
    }
    if (verdict?.allowed === true) return true;
    deny(verdict?.result ?? errorResult('denied'));
    return false;
  };
  return mine;
}

// The host's denial, saying where the download was redirected.
function redirectDenial(denial, finalUrl) {
  const result = structuredClone(denial);
  const first = result.content?.find((c) => c.type === 'text');
  const why = first?.text ?? 'denied';
  const text = `download_file: the download was redirected to ${finalUrl} — ${why}; it was cancelled and nothing was kept`;
  if (first) first.text = text;
  else result.content = [{ type: 'text', text }];
  result.isError = true;
  if (result.structuredContent?.denied) result.structuredContent.denied.redirectedTo = finalUrl;
  return result;
}

const wentTo = (result, link, url) => ({ ...result, _meta: { ...(result._meta ?? {}), [WENT_TO_META]: { ...(link ? { link } : {}), url } } });

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

  const link = url === undefined ? source : null;
  const outcome = await fetchIntoFolder(source, name, ctx);
  if (outcome.denial) return wentTo(redirectDenial(outcome.denial, outcome.finalUrl), link, outcome.finalUrl);
  const { item } = outcome;
  const structured = { path: item.filename, bytes: item.fileSize || item.bytesReceived, mimeType: item.mime || null, url: item.finalUrl || source };
  return wentTo(dataResult(`downloaded ${structured.bytes} bytes${structured.mimeType ? ` (${structured.mimeType})` : ''} to ${structured.path}`, structured),
    link, structured.url);
}

// Downloads `source` into tabbridge's folder as `name` (or the server's name)
// and waits for it: {item} (the complete DownloadItem), or {denial, finalUrl}
// when a redirect took it to a site the policy denies (cancelled and erased).
// Throws ToolError (interrupted, too large, dangerous, too slow, cancelled).
export async function fetchIntoFolder(source, name, ctx) {
  const report = progressReporter(ctx);
  report(0, undefined, `downloading ${source.startsWith('data:') ? 'the file' : source}`);
  const mine = newMine(name, source, ctx);
  oursByUrl.set(source, mine);
  let id;
  try {
    id = await chrome.downloads.download({ url: source, conflictAction: 'uniquify', saveAs: false });
  } catch (e) {
    throw new ToolError(`cannot download ${source.startsWith('data:') ? 'the file' : source}: ${e.message}`);
  } finally {
    oursByUrl.delete(source);
  }
  ours.set(id, mine);
  const stop = new AbortController();
  try {
    const outcome = await Promise.race([
      waitForDownload(id, AbortSignal.any([stop.signal, ...(ctx.signal ? [ctx.signal] : [])]), report).then((item) => ({ item })),
      mine.denied.then((denial) => ({ denial })),
    ]);
    if (outcome.denial) {
      stop.abort();
      await chrome.downloads.cancel(id).catch(() => {});
      await chrome.downloads.erase({ id }).catch(() => {});
      return { denial: outcome.denial, finalUrl: mine.finalUrl };
    }
    return outcome;
  } finally {
    ours.delete(id);
  }
}

export const tool = pageTool(downloadTool, { name: 'download_file' });

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
