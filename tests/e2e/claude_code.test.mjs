// Claude Code as a client (issue 41): the real CLI (@anthropic-ai/claude-code,
// pinned) runs `claude -p` with the build's shim as its only MCP server and a
// scripted stand-in for the Messages API as its model (lib/model_stand_in.mjs,
// answering at once), HOME in a temp dir, no network. The tests read what
// Claude Code really sent the model: which tools each request announced
// (Claude Code defers MCP tools: names in system messages, schemas loaded by
// ToolSearch), and the tool results. A state change and its tools are one
// step for the model: the request right after connect_browser already
// announces open_tab, the one right after open_tab the page's tools, so a
// model answering at once completes a task with no tool error; a page that
// leaves takes its form tool away ("no longer available"). Also `claude mcp
// add` then `claude mcp list` against the build.

import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { brief, useHarness } from './harness.mjs';
import {
  claudeMcp,
  describeRun,
  mcpAddEnvArgs,
  requireClaude,
  runClaude,
  tabbridgeServer,
} from './lib/claude_code.mjs';
import {
  announcedTools,
  announcements,
  announcementsFrom,
  lastToolResult,
  removedTools,
  startModelStandIn,
  toolFailures,
  turnAfterCall,
} from './lib/model_stand_in.mjs';
import { scriptedAgent } from './lib/scripted_agent.mjs';
import { SHIM_PATH } from './lib/config.mjs';

const mcp = (name) => `mcp__tabbridge__${name}`;
const FORM_TOOL = 'form_search_flights'; // flights.html's form (own_tools_forms.test.mjs)
const FLIGHT = { from: 'PAR', to: 'NYC', depart: '2026-12-24' };
// The surfaces that list the page's own tools as tools (Claude Code's default,
// dispatch, says them in answers instead: its own describe below).
const STABLE = ['--surface', 'stable'];

/** The [ref=eN] of the snapshot line matching `line` (a RegExp source). */
function refIn(snapshotText, line) {
  const m = new RegExp(`${line}[^\\n]*\\[ref=(e\\d+)\\]`).exec(snapshotText ?? '');
  assert.ok(m, `no element /${line}/ with a ref in the snapshot: ${brief(snapshotText, 2000)}`);
  return m[1];
}

/** The MCP tool names a turn's request announces, sorted, for messages. */
const announcedList = (turn) => [...announcedTools(turn.body)].filter((n) => n.startsWith('mcp__')).sort();

describe('Claude Code (the real CLI) with tabbridge', { timeout: 600_000 }, () => {
  const h = useHarness();
  before(() => requireClaude());

  it('claude mcp add tabbridge -- <shim>, then claude mcp list shows tabbridge connected', async () => {
    const { entry } = await tabbridgeServer(h);
    const add = await claudeMcp(h, ['add', 'tabbridge', ...mcpAddEnvArgs(entry), '--', SHIM_PATH]);
    assert.equal(add.code, 0, `claude mcp add failed: ${add.stderr} ${add.stdout}`);
    const list = await claudeMcp(h, ['list'], { homeDir: add.homeDir });
    assert.equal(list.code, 0, `claude mcp list failed: ${list.stderr} ${list.stdout}`);
    const line = list.stdout.split('\n').find((l) => l.startsWith('tabbridge:'));
    assert.ok(line, `claude mcp list names no tabbridge: ${list.stdout}`);
    assert.ok(line.includes(SHIM_PATH), `tabbridge's line names not the shim ${SHIM_PATH}: ${line}`);
    assert.match(line, /✔ Connected|Connected/, `tabbridge is not connected: ${line}`);
    assert.doesNotMatch(line, /Failed|✗/, line);
  });

  describe('a flight search, the model answering at once: connect, open, ToolSearch, snapshot, click, the form tool', () => {
    let web;
    let standIn;
    let agent;
    let run;

    before(async () => {
      web = await h.fixtureServer();
      agent = scriptedAgent([
        { tool: mcp('connect_browser'), input: { launch: true } },
        { tool: mcp('open_tab'), input: { url: web.url('/flights.html') } },
        { tool: mcp('snapshot'), alsoLoad: [mcp('click'), mcp(FORM_TOOL)] },
        {
          tool: mcp('click'),
          input: (ctx) => ({ ref: refIn(ctx.resultOf(mcp('snapshot'))?.text, 'checkbox "Flexible dates"') }),
        },
        { tool: mcp(FORM_TOOL), input: FLIGHT },
      ]);
      standIn = await startModelStandIn({ script: agent.script });
      run = await runClaude(h, {
        prompt: `Search flights from ${FLIGHT.from} to ${FLIGHT.to} on ${FLIGHT.depart}, flexible dates, at ${web.url('/flights.html')}`,
        standIn,
        tap: true,
        serverOptions: { shimArgs: STABLE }, // the surface that lists the page's own tools
      });
    });
    after(() => standIn?.close());
    afterEach((t) => {
      if (t.passed === false && run) process.stderr.write(`\n----- Claude Code run of "${t.name}" -----\n${describeRun(run, agent)}\n`);
    });

    it('Claude Code speaks 2026-07-28 with the shim (server/discover, no initialize) and listens for tool list changes', () => {
      const sent = run.mcp.filter((m) => m.dir === 'in' && m.msg?.method);
      const discover = sent.find((m) => m.msg.method === 'server/discover');
      assert.ok(discover, `Claude Code sent no server/discover: ${brief(sent.map((m) => m.msg.method))}`);
      assert.equal(discover.msg.params?._meta?.['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
      const answer = run.mcp.find((m) => m.dir === 'out' && m.msg?.id === discover.msg.id);
      assert.ok(answer?.msg?.result?.supportedVersions?.includes('2026-07-28'), `server/discover answered ${brief(answer?.msg)}`);
      assert.ok(!sent.some((m) => m.msg.method === 'initialize'), 'Claude Code fell back to initialize');
      const listen = sent.find((m) => m.msg.method === 'subscriptions/listen');
      assert.ok(listen, `Claude Code sent no subscriptions/listen: ${brief(sent.map((m) => m.msg.method))}`);
      assert.equal(listen.msg.params?.notifications?.toolsListChanged, true, brief(listen.msg.params));
    });

    it('the request right after connect_browser announces open_tab and list_tabs', () => {
      const turn = turnAfterCall(run.turns, mcp('connect_browser'));
      assert.ok(turn, `connect_browser never answered: ${brief(agent.log, 2000)}`);
      const result = lastToolResult(turn.body);
      assert.equal(result.isError, false, `connect_browser failed: ${result.text}`);
      const names = announcedTools(turn.body);
      for (const tool of ['open_tab', 'list_tabs']) {
        assert.ok(names.has(mcp(tool)), `the request after connect_browser does not announce ${tool}: it knows ${brief(announcedList(turn))}`);
      }
    });

    it("the request right after open_tab announces the page's tools: the generic ones and its form's", () => {
      const turn = turnAfterCall(run.turns, mcp('open_tab'));
      assert.ok(turn, `open_tab never answered: ${brief(agent.log, 2000)}`);
      const result = lastToolResult(turn.body);
      assert.equal(result.isError, false, `open_tab failed: ${result.text}`);
      const names = announcedTools(turn.body);
      for (const tool of ['snapshot', 'click', 'close_tab', FORM_TOOL]) {
        assert.ok(names.has(mcp(tool)), `the request after open_tab does not announce ${tool}: it knows ${brief(announcedList(turn))}`);
      }
    });

    it('the task completes with no tool error: no "No such tool available", no ToolSearch miss, the search reached the site', () => {
      assert.equal(run.code, 0, `claude exited ${run.code}: ${run.stderr.slice(-2000)}`);
      assert.equal(agent.gaveUp, null, `the scripted model gave up: ${agent.gaveUp}`);
      assert.ok(agent.finished, `the scripted model did not finish: ${brief(agent.log, 2000)}`);
      assert.deepEqual(standIn.errors, [], 'the stand-in script threw');
      const last = run.turns.at(-1);
      assert.deepEqual(toolFailures(last.body), [], 'tool errors the model saw');
      const searches = web.queriesOf('/search');
      assert.ok(searches.some((q) => q.from === FLIGHT.from && q.to === FLIGHT.to && q.depart === FLIGHT.depart),
        `the form was not submitted with ${brief(FLIGHT)}: /search got ${brief(searches)}`);
    });

    it('the request right after the form tool (its submit left the page) announces the form tool no longer available', () => {
      const turn = turnAfterCall(run.turns, mcp(FORM_TOOL));
      assert.ok(turn, `${FORM_TOOL} never answered: ${brief(agent.log, 2000)}`);
      assert.ok(removedTools(turn.body).has(mcp(FORM_TOOL)),
        `the request after ${FORM_TOOL} does not say it is no longer available; new announcements: ` +
        `${brief(announcementsFrom(turn.body, run.turns[turn.turn - 1].body.messages.length))}`);
    });
  });

  describe("Claude Code's default surface (dispatch): the page's tools said in answers, run by call_webmcp_tool", () => {
    let web;
    let standIn;
    let agent;
    let run;
    let toldName = null;
    const told = (ctx) => {
      const text = ctx.resultOf(mcp('open_tab'))?.text ?? '';
      try {
        toldName = (JSON.parse(text).pageTools?.tools ?? []).map((x) => x.name).find((n) => n.startsWith('form_')) ?? null;
      } catch {
        toldName = null;
      }
      return toldName;
    };

    before(async () => {
      web = await h.fixtureServer();
      agent = scriptedAgent([
        { tool: mcp('open_tab'), input: { url: web.url('/flights.html') } },
        { tool: mcp('call_webmcp_tool'), input: (ctx) => ({ name: told(ctx) ?? 'not-told', arguments: FLIGHT }) },
      ]);
      standIn = await startModelStandIn({ script: agent.script });
      run = await runClaude(h, { prompt: `Search flights from ${FLIGHT.from} to ${FLIGHT.to} at ${web.url('/flights.html')}`, standIn, tap: true });
    });
    after(() => standIn?.close());
    afterEach((t) => {
      if (t.passed === false && run) process.stderr.write(`\n----- Claude Code run of "${t.name}" -----\n${describeRun(run, agent)}\n`);
    });

    it("open_tab's answer (shown to the model) names the page's form tool; the task takes two calls, no search, no error, no list change", () => {
      assert.equal(toldName, FORM_TOOL, `open_tab's answer did not name ${FORM_TOOL}: ${brief(agent.log, 2000)}`);
      assert.equal(agent.gaveUp, null, `the scripted model gave up: ${agent.gaveUp}`);
      assert.ok(agent.finished, `the scripted model did not finish: ${brief(agent.log, 2000)}`);
      const last = run.turns.at(-1);
      assert.deepEqual(toolFailures(last.body), [], 'tool errors the model saw');
      const searches = run.turns.flatMap((t) => (t.body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])))
        .filter((c) => c.type === 'tool_use' && c.name === 'ToolSearch');
      assert.equal(searches.length, 0, 'no ToolSearch');
      assert.ok(web.queriesOf('/search').some((q) => q.from === FLIGHT.from && q.to === FLIGHT.to), 'the form was submitted');
      const changes = run.mcp.filter((m) => m.dir === 'out' && m.msg?.method === 'notifications/tools/list_changed');
      assert.equal(changes.length, 0, 'the list never changed');
    });
  });

  describe('a page with a declarative <form toolname> (the browser registers it: WebMCP is on in a launched browser)', () => {
    let web;
    let standIn;
    let agent;
    let run;
    const booking = (body) => [...announcedTools(body)].some((n) => n.endsWith('book_table'));

    before(async () => {
      web = await h.fixtureServer();
      agent = scriptedAgent([
        { tool: mcp('open_tab'), input: { url: web.url('/declarative-form.html') } },
        { wait: booking, what: 'the booking tool announced', poll: { tool: mcp('list_tabs') }, max: 40 },
        // Three more turns: a later change of the form would be announced by then.
        { tool: mcp('list_tabs') }, { tool: mcp('list_tabs') }, { tool: mcp('list_tabs') },
      ]);
      standIn = await startModelStandIn({ script: agent.script });
      run = await runClaude(h, { prompt: `Book a table at ${web.url('/declarative-form.html')}`, standIn, serverOptions: { shimArgs: STABLE } });
    });
    after(() => standIn?.close());
    afterEach((t) => {
      if (t.passed === false && run) process.stderr.write(`\n----- Claude Code run of "${t.name}" -----\n${describeRun(run, agent)}\n`);
    });

    it('is announced once, as the browser\'s tool (webmcp_…), never first as our reading of the form (form_…)', () => {
      assert.ok(agent.finished, `the scripted model did not finish: ${brief(agent.log, 2000)}`);
      const said = announcements(run.turns.at(-1).body).filter((a) => a.names.some((n) => n.endsWith('book_table')));
      assert.equal(said.length, 1, `the booking form was announced ${said.length} times: ${brief(said)}`);
      assert.equal(said[0].kind, 'deferred');
      const names = said[0].names.filter((n) => n.endsWith('book_table'));
      assert.deepEqual(names, [mcp(`webmcp_localhost_${web.port}_page0_book_table`)], 'the browser\'s tool, by its WebMCP name');
    });
  });

  describe('no policy file: the first visit of a site in `claude -p`', () => {
    let web;
    let standIn;
    let agent;
    let run;

    before(async () => {
      web = await h.fixtureServer();
      agent = scriptedAgent([
        { tool: mcp('open_tab'), input: { url: web.url('/flights.html') } },
      ]);
      standIn = await startModelStandIn({ script: agent.script });
      run = await runClaude(h, { prompt: `Open ${web.url('/flights.html')}`, standIn, serverOptions: { policy: null } });
    });
    after(() => standIn?.close());
    afterEach((t) => {
      if (t.passed === false && run) process.stderr.write(`\n----- Claude Code run of "${t.name}" -----\n${describeRun(run, agent)}\n`);
    });

    it('is refused with the exact `tabbridge allow` line that fixes it, and the page is never read', () => {
      const turn = turnAfterCall(run.turns, mcp('open_tab'));
      assert.ok(turn, `open_tab never answered: ${brief(agent.log, 2000)}`);
      const result = lastToolResult(turn.body);
      const site = new URL(web.origin).host;
      assert.match(result.text, new RegExp(`tabbridge allow ${site.replace(/[.]/g, '\\.')}`),
        `the denial does not give the fix: ${result.text}`);
      assert.ok(!web.requests.some((r) => r.path === '/flights.html'), 'the denied site was loaded');
    });
  });

  describe('a page that navigates away by itself', () => {
    let web;
    let standIn;
    let agent;
    let run;
    let formTool = null;
    const key = 'cc-leave';
    const formAnnounced = (body) => {
      formTool ??= [...announcedTools(body)].find((n) => n.startsWith(mcp('form_'))) ?? null;
      return formTool !== null;
    };

    before(async () => {
      web = await h.fixtureServer();
      agent = scriptedAgent([
        { tool: mcp('connect_browser'), input: { launch: true } },
        { tool: mcp('open_tab'), input: { url: web.url(`/cc-leaving.html?key=${key}`) } },
        { wait: formAnnounced, what: "the page's form tool announced", poll: { tool: mcp('list_tabs') }, max: 80 },
        { do: () => web.release(key) },
        { wait: (body) => removedTools(body).has(formTool), what: 'the form tool announced no longer available', poll: { tool: mcp('list_tabs') }, max: 80 },
      ]);
      standIn = await startModelStandIn({ script: agent.script });
      run = await runClaude(h, { prompt: `Subscribe me at ${web.url('/cc-leaving.html')}`, standIn, tap: true, serverOptions: { shimArgs: STABLE } });
    });
    after(() => standIn?.close());
    afterEach((t) => {
      if (t.passed === false && run) process.stderr.write(`\n----- Claude Code run of "${t.name}" -----\n${describeRun(run, agent)}\n`);
    });

    it('Claude Code announces its form tool as no longer available', () => {
      assert.ok(formTool, `the page's form tool was never announced: ${brief(agent.log, 2000)}`);
      assert.equal(agent.gaveUp, null, `the scripted model gave up: ${agent.gaveUp}`);
      assert.ok(agent.finished, `the scripted model did not finish: ${brief(agent.log, 2000)}`);
      const last = run.turns.at(-1);
      assert.ok(removedTools(last.body).has(formTool), `${formTool} was not announced as no longer available`);
      assert.ok(web.requests.some((r) => r.path === '/a.html'), 'the page did not navigate to /a.html');
    });
  });
});
