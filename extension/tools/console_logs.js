// console_logs {level?, limit?, since?, format?}: what the tab's pages wrote to
// the console and threw, captured by worker/console_capture.js (from the
// start of every page loaded since the extension started), grouped by level.

import { consoleEntries, LEVELS } from '../worker/console_capture.js';
import { sameSite } from '../worker/site_key.js';
import { pageTool } from './stack/page_tool.js';
import { dataResult, documentResult } from './stack/results.js';
import { clock, truncate } from '../worker/read_format.js';
import { noteRead } from './stack/reads.js';

const DEFAULT_LIMIT = 100;
const HEADINGS = { error: 'Errors', warn: 'Warnings', info: 'Info', log: 'Logs', debug: 'Debug' };

async function consoleLogsTool(tabId, { level = 'all', limit = DEFAULT_LIMIT, since, format = 'markdown' }, ctx) {
  const { tab } = ctx;
  const all = (await consoleEntries(tabId)).filter((e) => sameSite(e.url, ctx?.policyUrl));
  const matching = all.filter((e) => (level === 'all' || e.level === level) && (typeof since !== 'number' || e.timestamp >= since));
  const entries = matching.slice(-limit);
  for (const e of entries) noteRead(tabId, { documentId: null, url: e.url ?? '' }); // each entry is its page's words (stack/reads.js)
  const counts = Object.fromEntries(LEVELS.map((l) => [l, entries.filter((e) => e.level === l).length]));
  if (format === 'json') {
    return dataResult('', { tabId, level, total: matching.length, count: entries.length, entries });
  }

  const filters = [level !== 'all' ? `level ${level}` : '', typeof since === 'number' ? `since ${clock(since)}` : '']
    .filter(Boolean).join(', ');
  const shown = entries.length < matching.length ? `${entries.length} most recent of ${matching.length}` : `${entries.length}`;
  const lines = [`# Console logs (${shown} ${entries.length === 1 && shown === '1' ? 'entry' : 'entries'}${filters ? `; ${filters}` : ''})`];
  if (!entries.length) {
    lines.push('', `No console messages captured for this tab${filters ? ` matching ${filters}` : ''} (${truncate(tab.url, 200)}). ` +
      'Messages are captured from the start of every page loaded since the extension started.');
  }
  const here = tab.url ?? '';
  for (const l of LEVELS) {
    const group = entries.filter((e) => e.level === l);
    if (!group.length) continue;
    lines.push('', `## ${HEADINGS[l]} (${group.length})`);
    for (const e of group) {
      lines.push(`- [${clock(e.timestamp)}] ${indent(e.text)}`);
      if (e.stack) lines.push(...stackLines(e.stack));
      if (e.frameId) lines.push(`  (from a frame: ${truncate(e.url, 300)})`);
      else if (e.url && e.url !== here) lines.push(`  (on ${truncate(e.url, 300)})`);
    }
  }
  return documentResult(lines.join('\n'), { tabId, level, total: matching.length, count: entries.length, counts });
}

// The logs tell what led up to a crash.
export const tool = pageTool(consoleLogsTool, { onCrashedTab: true, name: 'console_logs' });

const indent = (text) => String(text).replace(/\n/g, '\n  ');

// The first few frames, one per line, indented under the entry.
function stackLines(stack) {
  const frames = stack.split('\n').map((l) => l.trim()).filter((l) => /^at\s/.test(l));
  const shown = frames.slice(0, 5).map((l) => `  ${l}`);
  if (frames.length > 5) shown.push(`  … ${frames.length - 5} more frames`);
  return shown;
}
