// Claude Code runs the tools a server marks readOnlyHint concurrently (one
// turn's calls at once). Every read-only tool the session lists is called in
// parallel, twice over, on one focused tab: each answers as it does alone,
// and a ref from one of the concurrent snapshots still clicks the right
// element. A read-only tool added later without an entry here fails the test.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { useHarness } from './harness.mjs';
import { bodyText, el, refOf, startPageBrowser } from './page_helpers.mjs';

// The arguments each read-only tool is called with (each must succeed).
const READ_ARGS = {
  list_tabs: {},
  snapshot: {},
  wait_for: { text: 'Click counter' },
  screenshot: {},
  read_page: {},
  console_logs: {},
  network_errors: {},
  network_requests: {},
  network_request: {}, // its id: the page's document, from network_requests (below)
  list_webmcp_tools: {},
};

describe('concurrent read-only calls on one session', { timeout: 240_000 }, () => {
  const h = useHarness();
  let env;

  before(async () => {
    env = await startPageBrowser(h, { name: 'concurrent', caps: 'network' });
  });

  it('every listed read-only tool answers when called all at once, and refs stay good', async (t) => {
    const tab = await env.open('clicks.html', { t });
    const { tools } = await env.s.client.listTools();
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint === true).map((tool) => tool.name);
    assert.ok(readOnly.includes('snapshot') && readOnly.includes('read_page'), `read-only tools: ${readOnly}`);
    const unknown = readOnly.filter((name) => !(name in READ_ARGS));
    assert.deepEqual(unknown, [], 'a read-only tool with no arguments here: add it to READ_ARGS');

    await env.s.pageOk('snapshot'); // the debugger attached: the request log has the document
    const requests = bodyText(await env.s.pageOk('network_requests', {}));
    const id = /^- (r\d+) GET 200 document/m.exec(requests)?.[1];
    assert.ok(id, `no document request in:\n${requests}`);
    READ_ARGS.network_request = { id };

    const calls = [...readOnly, ...readOnly].map((name) => env.s.call(name, READ_ARGS[name]).then((r) => [name, r]));
    const answers = await Promise.all(calls);
    for (const [name, r] of answers) assert.notEqual(r.isError, true, `${name} failed when run concurrently: ${JSON.stringify(r.content)}`);

    const snapshots = answers.filter(([name]) => name === 'snapshot').map(([, r]) => bodyText(r));
    for (const snap of snapshots) {
      const ref = refOf(snap, el('button', 'Count me'));
      await env.s.pageOk('click', { ref });
    }
    assert.equal(await tab.eval('window.clicks'), snapshots.length, 'each ref from a concurrent snapshot clicked its button');
  });
});
