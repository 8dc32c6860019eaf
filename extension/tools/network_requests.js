// network_requests {filter?, limit?} (--caps network): the requests of the
// tab's current document, newest last, one line each — id (for
// network_request), method, status or failure, type, size, time, URL — of
// pages of the site the call was checked for (worker/request_log.js). A
// request to another site the policy keeps from the session shows only that
// site; credentials in URLs are masked (shared/redact.js).

import { requestHost } from '../worker/native_port.js';
import { HostRequest } from '../worker/protocol.js';
import { pageOf } from '../worker/network_log.js';
import { requestsOf, responseSize } from '../worker/request_log.js';
import { sameSite, siteKey } from '../worker/site_key.js';
import { pageTool } from './stack/page_tool.js';
import { documentResult } from './stack/results.js';
import { redactUrl } from './shared/redact.js';
import { byteSize, truncate } from '../worker/read_format.js';
import { noteRead } from './stack/reads.js';

const DEFAULT_LIMIT = 50;

// webRequest's resource types, as a developer names them.
const TYPE_NAMES = { main_frame: 'document', sub_frame: 'frame', xmlhttprequest: 'fetch', stylesheet: 'css' };
export const typeName = (type) => TYPE_NAMES[type] ?? type;

export const failed = (e) => !!e.error || e.status >= 400;

// What became of it: the status, the network error, or that it is still going.
export function outcome(e) {
  if (e.error) return e.error;
  if (e.status === undefined) return 'pending';
  return String(e.status);
}

// The sites the entries went to that the policy lets this call's session read:
// the page's own without asking, each other one asked of the host once.
export async function readableSites(entries, ctx) {
  const own = siteKey(ctx.policyUrl);
  const allowed = new Set([own]);
  const others = new Map();
  for (const e of entries) {
    const site = siteKey(e.url);
    if (site !== own && !others.has(site)) others.set(site, e.url);
  }
  await Promise.all([...others].map(async ([site, url]) => {
    const verdict = await requestHost(HostRequest.POLICY_DECIDE, { call: ctx.requestId, url, capability: 'read' }).catch(() => null);
    if (verdict?.allowed === true) allowed.add(site);
  }));
  return allowed;
}

// The URL as shown: credentials masked; of a site the session may not read, only the site.
export const shownUrl = (e, readable) => (readable.has(siteKey(e.url)) ? redactUrl(e.url) : `${siteKey(e.url)} (a site the policy keeps from you)`);

function line(tabId, e, readable) {
  const time = e.end !== undefined ? `${Math.round(e.end - e.start)} ms` : '…';
  const bytes = e.error ? null : responseSize(tabId, e);
  const size = bytes === null ? '' : ` ${byteSize(bytes)}`; // no Content-Length, and the debugger was not there
  const flag = failed(e) ? ' FAILED' : '';
  return `- ${e.id} ${e.method} ${outcome(e)}${flag} ${typeName(e.type)}${size} ${time} ${truncate(shownUrl(e, readable), 300)}`;
}

async function networkRequestsTool(tabId, { filter, limit = DEFAULT_LIMIT }, ctx) {
  const all = requestsOf(tabId).filter((e) => sameSite(pageOf(e), ctx.policyUrl));
  const readable = await readableSites(all, ctx);
  const needle = typeof filter === 'string' ? filter.trim().toLowerCase() : '';
  const matching = needle
    ? all.filter((e) => `${e.method} ${shownUrl(e, readable)} ${typeName(e.type)} ${e.type} ${outcome(e)}${failed(e) ? ' failed' : ''}`.toLowerCase().includes(needle))
    : all;
  const shown = matching.slice(-limit);
  for (const e of shown) noteRead(tabId, { documentId: null, url: pageOf(e) ?? '' }); // each entry is its page's (stack/reads.js)
  const failures = matching.filter(failed).length;
  const head = `# Requests of this page (${shown.length < matching.length ? `newest ${shown.length} of ` : ''}${matching.length}` +
    `${needle ? ` matching "${truncate(filter, 80)}"` : ''}${failures ? `, ${failures} failed` : ''})`;
  const lines = [head, ''];
  if (!shown.length) {
    lines.push(all.length ? 'None match.' : 'None recorded since this page loaded (or since the extension started).');
  } else {
    lines.push(...shown.map((e) => line(tabId, e, readable)));
    lines.push('', 'network_request {id} shows one request\'s headers and bodies.');
  }
  return documentResult(lines.join('\n'), { tabId, total: matching.length, count: shown.length, failed: failures });
}

export const tool = pageTool(networkRequestsTool, { name: 'network_requests' });
