// network_request {id} (--caps network): one request of network_requests —
// its URL, outcome and times, its headers both ways, its body and the
// response's (text, capped; binary summarised). Credentials are masked:
// Authorization and Proxy-Authorization show as •••, and cookies are never
// seen (worker/request_log.js). The bodies are the page's data, labelled so.

import { requestById, responseBody } from '../worker/request_log.js';
import { sameSite } from '../worker/site_key.js';
import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { documentResult } from './stack/results.js';
import { MASK } from './shared/secrets.js';
import { truncate } from '../worker/read_format.js';
import { failed, outcome, sizeText, typeName } from './network_requests.js';

const MASKED_HEADERS = new Set(['authorization', 'proxy-authorization']);

const headerLines = (headers) => (headers?.length
  ? headers.map((h) => `${h.name}: ${MASKED_HEADERS.has(h.name.toLowerCase()) ? `${MASK} (masked)` : truncate(h.value ?? '', 1000)}`)
  : ['(none recorded)']);

function bodyLines(title, b, mimeType) {
  if (!b) return [];
  if (b.note) return [`## ${title}`, '', b.note];
  if (b.dropped) return [`## ${title}`, '', `${sizeText(b.size)}, no longer kept (the tab's bodies passed their budget)`];
  if (b.binary) return [`## ${title}`, '', `${sizeText(b.size)} of binary data${mimeType ? ` (${mimeType})` : ''}, not shown`];
  const extra = b.files?.length ? ` and ${b.files.length} file(s)` : '';
  const head = `## ${title} (${sizeText(b.size)}${extra}${b.truncated ? `, the first ${sizeText(b.text.length)} shown` : ''}; page data)`;
  return [head, '', '```', b.text, '```'];
}

const header = (headers, name) => headers?.find((h) => h.name.toLowerCase() === name)?.value;

async function networkRequestTool(tabId, { id }, ctx) {
  const e = requestById(tabId, id);
  const pageOf = e && (e.type === 'main_frame' ? e.url : e.initiator ?? e.url);
  if (!e || !sameSite(pageOf, ctx.policyUrl)) {
    throw new ToolError(`no request ${truncate(id, 40)} in this page's log — ids come from network_requests (a new page starts a new log)`);
  }
  const time = e.end !== undefined ? `${Math.round(e.end - e.start)} ms` : 'not finished';
  const firstByte = e.responseStart !== undefined ? `, first byte after ${Math.round(e.responseStart - e.start)} ms` : '';
  const lines = [
    `# ${e.method} ${truncate(e.url, 1000)}`,
    '',
    `${failed(e) ? 'FAILED: ' : ''}${e.statusLine || outcome(e)} — ${typeName(e.type)}, ${time}${firstByte}${e.fromCache ? ', from cache' : ''}`,
  ];
  for (const r of e.redirects) lines.push(`redirected ${r.status} from ${truncate(r.from, 300)}`);
  lines.push('', '## Request headers', '', ...headerLines(e.requestHeaders));
  lines.push('', ...bodyLines('Request body', e.requestBody, header(e.requestHeaders, 'content-type')));
  if (e.status !== undefined) {
    lines.push('', '## Response headers', '', ...headerLines(e.responseHeaders));
    const mimeType = header(e.responseHeaders, 'content-type');
    lines.push('', ...bodyLines('Response body', await responseBody(tabId, e), mimeType));
  }
  lines.push('', 'Cookies are not shown; Authorization headers are masked.');
  return documentResult(lines.join('\n').replace(/\n{3,}/g, '\n\n'), { tabId, id: e.id, method: e.method, url: e.url, status: e.status ?? null, error: e.error ?? null });
}

export const tool = pageTool(networkRequestTool, { name: 'network_request' });
