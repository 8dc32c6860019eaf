// network_errors {limit?, since?, format?}: the tab's failed requests (network
// errors, HTTP status >= 400) recorded by worker/network_log.js since the
// extension started, of pages of the site the call was checked for.

import { networkFailures } from '../worker/network_log.js';
import { sameSite } from '../worker/site_key.js';
import { pageTool } from './stack/page_tool.js';
import { dataResult, documentResult } from './stack/results.js';
import { clock, truncate } from '../worker/read_format.js';
import { noteRead } from './stack/reads.js';

const DEFAULT_LIMIT = 100;

async function networkErrorsTool(tabId, { limit = DEFAULT_LIMIT, since, format = 'markdown' }, ctx) {
  const { tab } = ctx;
  const all = (await networkFailures(tabId)).filter((e) => sameSite(e.page ?? e.url, ctx?.policyUrl));
  const matching = typeof since === 'number' ? all.filter((e) => e.timestamp >= since) : all;
  const entries = matching.slice(-limit);
  for (const e of entries) noteRead(tabId, { documentId: null, url: e.page ?? e.url ?? '' }); // each entry is its page's (stack/reads.js)
  const structured = { tabId, total: matching.length, count: entries.length, entries };
  if (format === 'json') return dataResult('', structured);

  const lines = [];
  const shown = entries.length < matching.length ? `${entries.length} most recent of ${matching.length}` : `${entries.length}`;
  lines.push(`# Network errors (${shown})`);
  if (!entries.length) {
    lines.push('', `No failed requests recorded for this tab${typeof since === 'number' ? ' since the given time' : ''} ` +
      `(${truncate(tab.url, 200)}). Requests are watched from the moment the extension started.`);
  } else {
    lines.push('');
    for (const e of entries) {
      const outcome = e.error ? e.error : `HTTP ${e.status}${e.statusText && e.statusText !== String(e.status) ? ` ${e.statusText}` : ''}`;
      lines.push(`- [${clock(e.timestamp)}] ${e.method} ${truncate(e.url, 500)} — ${outcome} (${e.type})`);
    }
  }
  return documentResult(lines.join('\n'), { tabId, total: matching.length, count: entries.length });
}

// The log tells what led up to a crash.
export const tool = pageTool(networkErrorsTool, { onCrashedTab: true, name: 'network_errors' });
