// A scripted model for lib/model_stand_in.mjs: scriptedAgent(steps) works
// through tool calls the way a model does in Claude Code, reading each
// request: it calls a tool when the request offers its schema, loads it with
// ToolSearch first when it does not, and tries again (a bounded number of
// times, after a think time) when a ToolSearch found nothing or the call met
// "No such tool available". Steps may also poll until the request shows
// something (an announcement), or do something at once (release a held
// fixture response). Its log says what it did each turn.

import { callableTools, lastToolResult, toolResults, toolUse } from './model_stand_in.mjs';

const NO_SUCH_TOOL = /No such tool available/i;

/**
 * A model that works through `steps`, for startModelStandIn's script:
 *   {tool, input?, search?, alsoLoad?}  call a tool (its full name, mcp__tabbridge__open_tab); input: an
 *                            object or (ctx) => object. When the tool is not callable in the request yet,
 *                            the agent loads it first with ToolSearch: `search` keywords, else
 *                            "select:<tool>,<alsoLoad…>" (the tools of the next steps in the same turn).
 *   {wait, poll, what?, max?, pollDelayMs?}  until wait(body) is true, call the step `poll` (answered
 *                            after pollDelayMs: a model checking again), at most max times: a poll with a
 *                            deadline, not a sleep
 *   {do}                     do(ctx) at once (e.g. release a held fixture response), no turn
 *   {branch}                 branch(ctx) => steps, at once: they take this step's place (what a model does
 *                            next depending on what the request shows, e.g. a page's own tool or a snapshot)
 * ctx: {body, results (toolResults), resultOf(name): the last result of that tool}.
 * A ToolSearch that did not load the tool, or a call answered "No such tool
 * available", is tried again after retryDelayMs, at most `attempts` times;
 * then the agent gives up (a text answer). All steps done: the text `done`.
 * Returns {script, log, finished, gaveUp}: log has one entry a turn
 * ({turn, step, action, name, ...}).
 */
export function scriptedAgent(stepsGiven, { attempts = 5, retryDelayMs = 200, done = 'Done.' } = {}) {
  const steps = [...stepsGiven]; // a branch step splices its steps in
  const log = [];
  const state = { step: 0, tries: 0, polls: 0, last: null, finished: false, gaveUp: null };
  const ctxOf = (body) => {
    const results = toolResults(body);
    return { body, results, resultOf: (name) => results.filter((r) => r.name === name).at(-1) ?? null };
  };
  const giveUp = (turn, why) => {
    state.gaveUp = why;
    log.push({ turn, step: state.step, action: 'give-up', why });
    return `I give up: ${why}`;
  };
  // One turn of the tool `name`: call it if callable, else load it.
  const use = (body, turn, name, input, search, delayMs, alsoLoad = []) => {
    const ctx = ctxOf(body);
    if (callableTools(body).has(name)) {
      state.last = { action: 'call', name };
      log.push({ turn, step: state.step, action: 'call', name });
      return { content: [toolUse(name, typeof input === 'function' ? input(ctx) : (input ?? {}))], delayMs };
    }
    const query = search ?? `select:${[name, ...alsoLoad].join(',')}`;
    state.last = { action: 'search', name };
    log.push({ turn, step: state.step, action: 'search', name, query });
    return { content: [toolUse('ToolSearch', { query, max_results: 10 })], delayMs };
  };
  const script = (body, turn) => {
    const last = lastToolResult(body);
    // What came of the previous turn's action.
    let retry = false;
    if (state.last?.action === 'search' && !callableTools(body).has(state.last.name)) retry = true;
    if (state.last?.action === 'call' && last?.name === state.last.name && last.isError && NO_SUCH_TOOL.test(last.text)) retry = true;
    if (state.last?.action === 'call' && !retry && !state.last.poll) {
      state.step++;
      state.tries = 0;
    }
    if (retry && ++state.tries >= attempts) return giveUp(turn, `${state.last.name} not callable after ${attempts} tries`);
    for (;;) {
      const step = steps[state.step];
      if (!step) {
        state.finished = true;
        state.last = null;
        log.push({ turn, step: state.step, action: 'done' });
        return done;
      }
      if (step.do) {
        step.do(ctxOf(body));
        state.step++;
        continue;
      }
      if (step.branch) {
        const chosen = step.branch(ctxOf(body));
        log.push({ turn, step: state.step, action: 'branch', what: step.what, steps: chosen.length });
        steps.splice(state.step, 1, ...chosen);
        continue;
      }
      if (step.wait) {
        if (step.wait(body)) {
          log.push({ turn, step: state.step, action: 'waited', what: step.what, polls: state.polls });
          state.step++;
          state.polls = 0;
          state.tries = 0;
          continue;
        }
        if (!retry && state.polls++ >= (step.max ?? 40)) return giveUp(turn, `no ${step.what ?? 'condition'} after ${step.max ?? 40} polls`);
        const r = use(body, turn, step.poll.tool, step.poll.input, step.poll.search, step.pollDelayMs ?? 250);
        if (state.last.action === 'call') state.last.poll = true;
        return r;
      }
      return use(body, turn, step.tool, step.input, step.search, retry ? retryDelayMs : 0, step.alsoLoad);
    }
  };
  return {
    script,
    log,
    get finished() {
      return state.finished;
    },
    get gaveUp() {
      return state.gaveUp;
    },
  };
}
