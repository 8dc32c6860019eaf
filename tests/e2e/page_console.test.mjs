// console_logs and network_errors. The console fixture logs at every level,
// throws an uncaught error and leaves a promise rejection unhandled while it
// loads, and fetches a 404 and a closed port. It is opened UNFOCUSED and only
// focused once it has finished: what it logged at document start must be
// there all the same.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness, waitFor } from './harness.mjs';
import { allText, bodyText, entriesOf, startPageBrowser } from './page_helpers.mjs';

const LOAD_TEXTS = {
  log: 'log-1 at load',
  info: 'info-1 at load',
  warn: 'warn-1 at load',
  error: 'error-1 at load',
  debug: 'debug-1 at load',
  uncaught: 'uncaught-boom at load',
  rejection: 'rejected-boom at load',
};

const entryText = (e) => String(e.text ?? e.message ?? '');
const entryUrl = (e) => String(e.url ?? '');

describe('console_logs and network_errors', { timeout: 150_000 }, () => {
  const h = useHarness();
  let env;
  let s;
  let tab;

  before(async () => {
    env = await startPageBrowser(h, { name: 'console' });
    s = env.s;
    tab = await env.open('/console.html', { focus: false });
    await tab.waitEval('window.__consoleDone === true', 'the console fixture to finish its requests');
    assert.equal((await s.listTabs()).focusedTabId, null, 'precondition: the tab loaded while nothing was focused');
    await s.callOk('focus_tab', { tabId: tab.tabId });
  });

  const logsText = async (args) => allText(await s.pageOk('console_logs', { limit: 1000, ...args }));
  const logsJson = async (args) => entriesOf(await s.pageOk('console_logs', { limit: 1000, format: 'json', ...args }));

  describe('console_logs', () => {
    it('level all holds log, info, warn and error entries logged at document start, before the tab was focused', async () => {
      const text = await logsText({ level: 'all' });
      for (const key of ['log', 'info', 'warn', 'error']) assert.ok(text.includes(LOAD_TEXTS[key]), `missing "${LOAD_TEXTS[key]}" in:\n${text}`);
    });

    it('level all holds the uncaught error thrown at load', async () => {
      assert.ok((await logsText({ level: 'all' })).includes(LOAD_TEXTS.uncaught));
    });

    it('level all holds the unhandled promise rejection at load', async () => {
      assert.ok((await logsText({ level: 'all' })).includes(LOAD_TEXTS.rejection));
    });

    it('level all holds console.debug', async () => {
      assert.ok((await logsText({ level: 'all' })).includes(LOAD_TEXTS.debug));
    });

    it('level error: console.error, the uncaught error and the rejection; no log, info or warn', async () => {
      const text = await logsText({ level: 'error' });
      for (const key of ['error', 'uncaught', 'rejection']) assert.ok(text.includes(LOAD_TEXTS[key]), `missing "${LOAD_TEXTS[key]}" in:\n${text}`);
      for (const key of ['log', 'info', 'warn', 'debug']) assert.ok(!text.includes(LOAD_TEXTS[key]), `"${LOAD_TEXTS[key]}" should be filtered out:\n${text}`);
    });

    it('level warn: the warning; no log, info or debug', async () => {
      const text = await logsText({ level: 'warn' });
      assert.ok(text.includes(LOAD_TEXTS.warn), `missing the warning in:\n${text}`);
      for (const key of ['log', 'info', 'debug']) assert.ok(!text.includes(LOAD_TEXTS[key]), `"${LOAD_TEXTS[key]}" should be filtered out:\n${text}`);
    });

    it('format json: entries carry level, text and a numeric timestamp', async () => {
      const entries = await logsJson({ level: 'all' });
      const byText = (t) => entries.find((e) => entryText(e).includes(t));
      for (const e of entries) {
        assert.equal(typeof e.level, 'string', JSON.stringify(e));
        assert.equal(typeof entryText(e), 'string', JSON.stringify(e));
        assert.equal(typeof e.timestamp, 'number', JSON.stringify(e));
      }
      assert.equal(byText(LOAD_TEXTS.log)?.level, 'log', 'console.log entry level');
      assert.match(byText(LOAD_TEXTS.warn)?.level ?? '', /^warn(ing)?$/, 'console.warn entry level');
      assert.equal(byText(LOAD_TEXTS.error)?.level, 'error', 'console.error entry level');
      assert.equal(byText(LOAD_TEXTS.uncaught)?.level, 'error', 'uncaught error level');
    });

    it('format markdown (the default) is text, not JSON', async () => {
      const r = await s.pageOk('console_logs', { level: 'all' });
      const text = bodyText(r);
      assert.ok(text.includes(LOAD_TEXTS.warn), text);
      assert.throws(() => JSON.parse(text), 'markdown output should not be JSON');
    });

    it('limit caps the number of entries', async () => {
      const entries = await logsJson({ level: 'all', limit: 2 });
      assert.equal(entries.length, 2, JSON.stringify(entries));
    });

    it('since leaves out entries logged before it', async () => {
      const since = Date.now();
      const marker = `after-since-${since}`;
      await tab.eval(`console.log(${JSON.stringify(marker)})`);
      const entries = await waitFor(
        async () => {
          const got = await logsJson({ level: 'all', since });
          return got.some((e) => entryText(e).includes(marker)) ? got : null;
        },
        { what: `console_logs {since} to show ${marker}` },
      );
      assert.ok(!entries.some((e) => entryText(e).includes(LOAD_TEXTS.log)), 'entries from load are before since');
      assert.ok(entries.every((e) => e.timestamp >= since), `every entry is at or after since: ${JSON.stringify(entries)}`);
    });

    it('a console.error in the focused tab reaches the client as notifications/message', async () => {
      const marker = `live-error-${Date.now()}`;
      await tab.eval(`console.error(${JSON.stringify(marker)})`);
      await waitFor(() => s.messages.some((m) => JSON.stringify(m.data ?? '').includes(marker)), {
        what: `a notifications/message carrying ${marker} (have ${s.messages.length} messages)`,
      });
      const m = s.messages.find((x) => JSON.stringify(x.data ?? '').includes(marker));
      assert.equal(m.level, 'error');
    });
  });

  describe('network_errors', () => {
    it('lists the 404 with its status', async () => {
      const text = allText(await s.pageOk('network_errors', {}));
      const line = text.split('\n').find((l) => l.includes('/status/404?from=console-page'));
      assert.ok(line, `the 404 request is listed:\n${text}`);
      assert.match(line, /\b404\b/, 'with its status');
    });

    it('lists the request to a closed port as a network failure', async () => {
      const text = allText(await s.pageOk('network_errors', {}));
      const line = text.split('\n').find((l) => l.includes(`127.0.0.1:${env.closedPort}/refused`));
      assert.ok(line, `the refused request is listed:\n${text}`);
      assert.match(line, /ERR_|refused|failed/i, 'with the network error');
    });

    it('does not list successful requests', async () => {
      const text = allText(await s.pageOk('network_errors', {}));
      assert.ok(!text.includes('/console.html'), `the page itself (200) is not a failure:\n${text}`);
    });

    it('format json: entries carry the URL and a status or an error', async () => {
      const entries = entriesOf(await s.pageOk('network_errors', { format: 'json' }));
      const notFound = entries.find((e) => entryUrl(e).includes('/status/404?from=console-page'));
      const refused = entries.find((e) => entryUrl(e).includes(`127.0.0.1:${env.closedPort}/refused`));
      assert.ok(notFound, `404 entry: ${JSON.stringify(entries)}`);
      assert.equal(notFound.status, 404);
      assert.ok(refused, `refused entry: ${JSON.stringify(entries)}`);
      assert.match(String(refused.error ?? refused.errorText ?? refused.statusText ?? ''), /ERR_|refused|failed/i, JSON.stringify(refused));
    });

    it('limit caps the number of entries', async () => {
      const entries = entriesOf(await s.pageOk('network_errors', { format: 'json', limit: 1 }));
      assert.equal(entries.length, 1, JSON.stringify(entries));
    });
  });
});
