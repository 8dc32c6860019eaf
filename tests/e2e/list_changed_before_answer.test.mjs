// A change and its tools are one step (issue 41 item 3), for every call that
// takes the focused tab to another page, not only open_tab and navigate: a
// click on a link, the page's own form tool whose submit lands on another
// form (a declarative <form toolname>, which the page reports only once the
// browser registered it, a moment after the parse), Enter on a focused link,
// and run_steps whose steps do those. Each
// answers once the new page's own tools reached the host, and the host sends
// the one list_changed of the navigation right before the answer — so a
// client that fetches tools/list when told (Claude Code) has the new page's
// form tool before the model's next request is built, and the list fetched
// right after the answer has it too.
//
// What the client got is recorded in the order its transport delivered it
// (the shim writes notifications and answers to one stdout, in order): each
// tools/call sent, each list_changed (with the tools/list fetched at once
// on it, as a client does), each answer.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { stepper, useHarness, waitFor } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';
import { listTools, ownOf, pageIndex, webmcpList, webmcpName } from './own_tools_helpers.mjs';

describe('a call that lands on another page: one list_changed, before its answer', { timeout: 240_000 }, () => {
  const h = useHarness();
  const step = stepper();
  let env;
  let s;
  let tab;
  // In the order the client got them: {call, name} (a tools/call sent),
  // {changed, own} (own: the page's own tools of the tools/list fetched on
  // it), {answer} (the response to request `answer`).
  const log = [];
  const fetches = [];

  before(async () => {
    env = await startPageBrowser(h, { name: 'before-answer' });
    s = env.s;
    const { transport } = s;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (message?.method === 'tools/call') log.push({ call: message.id, name: message.params?.name });
      return send(message, options);
    };
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (message?.method === 'notifications/tools/list_changed') {
        const entry = { changed: true, own: null };
        log.push(entry);
        fetches.push(listTools(s).then((tools) => { entry.own = names(tools); }, (e) => { entry.own = String(e); }));
      } else if (message && 'id' in message && !('method' in message)) {
        log.push({ answer: message.id });
      }
      deliver?.(message, extra);
    };
  });

  // chain-note.html's declarative form, as the browser lists it.
  const sendNote = async () => webmcpName(env.web.port, await pageIndex(s, tab.tabId), 'send_note');
  const names = (tools) => ownOf(tools).map((t) => t.name).sort();
  const shown = (entries) => JSON.stringify(entries.map((e) => (e.changed ? { changed: e.own } : e)));

  /**
   * Runs `call` (one tools/call) and checks that the session heard exactly
   * one list_changed for it, before its answer; that the tools/list fetched
   * on that notification and the one fetched right after the answer both
   * list `own` (the new page's own tools) already; and that nothing follows
   * once the page's tools are all in.
   */
  const landsWithItsTools = async (what, call, own) => {
    await s.barrier();
    await Promise.all(fetches);
    const from = log.length;
    const result = await call();
    const right = names(await listTools(s));
    await waitFor(async () => (await webmcpList(s)).loading !== true, { what: `${what}: the new page's tools reported` });
    await s.barrier();
    await Promise.all(fetches);
    const seen = log.slice(from);
    const sent = seen.find((e) => e.call !== undefined);
    assert.ok(sent, `${what}: no tools/call recorded: ${shown(seen)}`);
    const answered = seen.findIndex((e) => e.answer === sent.call);
    const changes = seen.filter((e) => e.changed);
    assert.equal(changes.length, 1, `${what}: one list_changed for the navigation, heard ${shown(seen)}`);
    assert.ok(seen.indexOf(changes[0]) < answered, `${what}: the list_changed comes before the answer: ${shown(seen)}`);
    assert.deepEqual(changes[0].own, own, `${what}: the tools/list fetched on the notification has the new page's tools`);
    assert.deepEqual(right, own, `${what}: the tools/list fetched right after the answer has the new page's tools`);
    return result;
  };

  it('open a page with a link', step(async () => {
    tab = await env.open('/chain-start.html');
    await waitFor(async () => (await webmcpList(s)).loading !== true, { what: 'chain-start: its tools reported' });
    assert.deepEqual(names(await listTools(s)), [], 'chain-start brings no tools of its own');
  }));

  it('click on a link to a page with a form', step(async () => {
    const r = await landsWithItsTools('click', () => s.pageOk('click', { selector: '#rooms' }), ['form_find_rooms']);
    assert.match(r.content[0].text, /navigated to .*\/chain-rooms\.html/);
  }));

  it("the page's own form tool whose submit lands on a page with another form", step(async () => {
    await landsWithItsTools('form tool', () => s.pageOk('form_find_rooms', { city: 'Oslo' }), [await sendNote()]);
    await tab.waitEval("location.pathname === '/chain-note.html'", 'the rooms form sent');
  }));

  it('press_key Enter on a focused link', step(async () => {
    assert.equal(await tab.eval("document.getElementById('onward').focus(), document.activeElement.id"), 'onward');
    const r = await landsWithItsTools('press_key', () => s.pageOk('press_key', { key: 'Enter' }), ['form_join_list']);
    assert.match(r.content[0].text, /navigated to .*\/chain-end\.html/);
  }));

  it('run_steps: a click to a page with a form, then that form: one change for the run, before its answer', step(async () => {
    const steps = [
      { tool: 'click', arguments: { selector: '#again' } },
      { tool: 'form_find_rooms', arguments: { city: 'Bergen' } },
    ];
    const r = await landsWithItsTools('run_steps', () => s.pageOk('run_steps', { steps }), [await sendNote()]);
    assert.deepEqual(r.structuredContent, { steps: [{ tool: 'click', isError: false }, { tool: 'form_find_rooms', isError: false }], ran: 2, of: 2 });
  }));

  it('a click that does not navigate: no wait, no list_changed', step(async () => {
    await s.barrier();
    await Promise.all(fetches);
    const from = log.length;
    await s.pageOk('click', { selector: '#text' });
    await s.barrier();
    assert.deepEqual(log.slice(from).filter((e) => e.changed), [], 'a click that stays sends no list_changed');
  }));

  it('the whole flow, as heard', async (t) => {
    await Promise.all(fetches);
    t.diagnostic(`heard: ${shown(log)}`);
  });
});
