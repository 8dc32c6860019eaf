// network_request {id} (--caps network): one request of network_requests —
// its URL, outcome and times, its headers both ways, its body and the
// response's (text, capped; binary summarised). Credentials are masked
// (shared/redact.js: secret headers, query values, form and JSON fields), and
// cookies are never seen (worker/request_log.js); a document's request body
// (a form's submission) is not shown. The bodies are the page's data, fenced
// and labelled so.

import { requestById, responseBody } from '../worker/request_log.js';
import { sameSite, siteKey } from '../worker/site_key.js';
import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { documentResult } from './stack/results.js';
import { fenced, redactBody, redactHeaders, redactUrl, secretValues } from './shared/redact.js';
import { maskSecrets } from './shared/secrets.js';
import { byteSize, truncate } from '../worker/read_format.js';
import { pageOf } from '../worker/network_log.js';
import { noteRead } from './stack/reads.js';
import { failed, outcome, readableSites, typeName } from './network_requests.js';

const headerLines = (headers) => (headers?.length ? redactHeaders(headers).map((h) => `${h.name}: ${h.value}`) : ['(none recorded)']);

function bodyLines(title, b, mimeType) {
  if (!b) return [];
  if (b.note) return [`## ${title}`, '', b.note];
  if (b.dropped) return [`## ${title}`, '', `${byteSize(b.size)}, no longer kept (the tab's bodies passed their budget)`];
  if (b.binary) return [`## ${title}`, '', `${byteSize(b.size)} of binary data${mimeType ? ` (${mimeType})` : ''}, not shown`];
  const extra = b.files?.length ? ` and ${b.files.length} file(s)` : '';
  const head = `## ${title} (${byteSize(b.size)}${extra}${b.truncated ? `, the first ${byteSize(b.text.length)} shown` : ''}; page data)`;
  return [head, '', fenced(redactBody(b.text, mimeType))];
}

const header = (headers, name) => headers?.find((h) => h.name.toLowerCase() === name)?.value;

async function networkRequestTool(tabId, { id }, ctx) {
  const e = requestById(tabId, id);
  if (!e || !sameSite(pageOf(e), ctx.policyUrl)) {
    throw new ToolError(`no request ${truncate(id, 40)} in this page's log — ids come from network_requests (a new page starts a new log)`);
  }
  if (!(await readableSites([e], ctx)).has(siteKey(e.url))) {
    throw new ToolError(`${e.id} went to ${siteKey(e.url)}, a site the policy keeps from this session: its details are not shown`);
  }
  // Its page's, and its bodies are the answering site's (stack/reads.js).
  noteRead(tabId, { documentId: null, url: pageOf(e) ?? '' });
  noteRead(tabId, { documentId: null, url: e.url ?? '' });
  const time = e.end !== undefined ? `${Math.round(e.end - e.start)} ms` : 'not finished';
  const firstByte = e.responseStart !== undefined ? `, first byte after ${Math.round(e.responseStart - e.start)} ms` : '';
  const lines = [
    `# ${e.method} ${truncate(redactUrl(e.url), 1000)}`,
    '',
    `${failed(e) ? 'FAILED: ' : ''}${e.statusLine || outcome(e)} — ${typeName(e.type)}, ${time}${firstByte}${e.fromCache ? ', from cache' : ''}`,
  ];
  for (const r of e.redirects) lines.push(`redirected ${r.status} from ${truncate(redactUrl(r.from), 300)}`);
  lines.push('', '## Request headers', '', ...headerLines(e.requestHeaders));
  lines.push('', ...bodyLines('Request body', e.requestBody, header(e.requestHeaders, 'content-type')));
  if (e.status !== undefined) {
    lines.push('', '## Response headers', '', ...headerLines(e.responseHeaders));
    const mimeType = header(e.responseHeaders, 'content-type');
    lines.push('', ...bodyLines('Response body', await responseBody(tabId, e), mimeType));
  }
  lines.push('', 'Cookies are not shown; credentials (Authorization and the like, tokens, passwords) are masked.');
  const result = documentResult(lines.join('\n').replace(/\n{3,}/g, '\n\n'),
    { tabId, id: e.id, method: e.method, url: redactUrl(e.url), status: e.status ?? null, error: e.error ?? null });
  // What was masked in the request is masked wherever else it shows (an echo in the response).
  const sent = secretValues({ headers: e.requestHeaders, url: e.url, body: e.requestBody?.text ?? '', contentType: header(e.requestHeaders, 'content-type') });
  return maskSecrets(result, sent);
}

export const tool = pageTool(networkRequestTool, { name: 'network_request' });
