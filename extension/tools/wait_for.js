// wait_for {selector?, text?, gone?, timeoutMs?}: polls every frame of the page
// (chrome.scripting, isolated world, so page CSP does not matter) until a
// visible element matches the selector — or the page's visible text contains
// the text, or both: a visible match of the selector containing the text —
// or, with gone, until there is none. Survives navigations while it waits;
// when the answer comes from another top document than the one the call
// began on, its _meta says that document's URL (navigated_to.js), for the
// host to decide before the model reads it (docs/protocol.md "The policy,
// checked twice").

import { dialogOf } from '../worker/dialogs.js';
import { NavigatedError, ToolError } from './stack/errors.js';
import { inject } from './stack/inject.js';
import { catchToolError, pageTool } from './stack/page_tool.js';
import { progressReporter } from './stack/progress.js';
import { dataResult } from './stack/results.js';
import { sleep } from '../worker/time.js';
import { withNavigatedTo } from './shared/navigated_to.js';

const DEFAULT_TIMEOUT_MS = 10000;
const FIRST_INTERVAL_MS = 100;
const MAX_INTERVAL_MS = 250;

const topFrame = (tabId) => chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);

async function waitForTool(tabId, args, ctx) {
  const start = await topFrame(tabId);
  const seen = { frame: null }; // the top frame ({documentId, url}) the last probe's answer came from
  const r = await waitIn(tabId, args, { ...ctx, seen });
  const frame = r.isError || !seen.frame ? await topFrame(tabId) : seen.frame;
  const moved = start && frame && frame.documentId !== start.documentId;
  return withNavigatedTo(r, moved ? frame.url : null);
}

const waitIn = catchToolError(async (tabId, { selector, text, gone = false, timeoutMs = DEFAULT_TIMEOUT_MS }, ctx) => {
  const { seen } = ctx;
  if (selector === undefined && text === undefined) {
    throw new ToolError('give a selector, a text, or both (an element matching selector that contains text)');
  }
  if (selector !== undefined && !selector.trim()) throw new ToolError('selector is empty: give a CSS selector such as #result');
  if (text !== undefined && !text.trim()) throw new ToolError('text is empty: give the text to wait for');

  const what = describeTarget(selector, text);
  const report = progressReporter(ctx);
  const started = Date.now();
  const deadline = started + timeoutMs;
  let interval = FIRST_INTERVAL_MS;
  let lastReport = started;
  let last = null; // the last probe's combined result
  let lastProblem = null;
  report(0, timeoutMs, `waiting for ${what}${gone ? ' to disappear' : ''}`);

  for (;;) {
    try {
      const left = Math.max(1000, deadline - Date.now());
      const before = await topFrame(tabId);
      last = combine(await inject(tabId, { func: probe, args: [{ selector, text }], allFrames: true, timeoutMs: left, readUrl: (r) => r?.url }));
      lastProblem = null;
      // The answer counts only when it is one document's: the one _meta names.
      const after = await topFrame(tabId);
      if (before?.documentId !== after?.documentId) throw new NavigatedError('a new document came');
      seen.frame = after;
    } catch (e) {
      // Mid-navigation (or on an error page while it loads): try again. A
      // dialog does not go away by itself: say so now.
      if (!(e instanceof ToolError) || dialogOf(tabId)) throw e;
      last = null;
      lastProblem = e instanceof NavigatedError ? 'the page was navigating' : e.message;
    }
    if (last?.invalid) throw new ToolError(`"${selector}" is not a valid CSS selector (${last.invalid})`);
    const elapsedMs = Date.now() - started;
    if (last && (gone ? last.visible === 0 : last.visible > 0)) {
      const structured = { matched: true, elapsedMs, gone };
      if (selector !== undefined) structured.selector = selector;
      if (text !== undefined) structured.text = text;
      if (!gone && last.sample) structured.element = last.sample;
      const sample = !gone && last.sample ? ` — ${last.sample}` : '';
      return dataResult(`${what} ${gone ? 'disappeared' : 'appeared'} after ${elapsedMs} ms${sample}`, structured);
    }
    if (Date.now() >= deadline) {
      throw new ToolError(`timed out after ${timeoutMs} ms: ${what} ${gone ? 'is still there' : 'never appeared'}` +
        `${diagnose(last, lastProblem, selector, text, gone)}. Check it with read_page or snapshot, or wait longer with timeoutMs.`);
    }
    if (Date.now() - lastReport >= 1000) {
      lastReport = Date.now();
      report(elapsedMs, timeoutMs, `still waiting for ${what} (${Math.round(elapsedMs / 100) / 10} s)`);
    }
    await sleep(Math.min(interval, Math.max(0, deadline - Date.now())), ctx.signal);
    interval = Math.min(MAX_INTERVAL_MS, interval * 1.5);
  }
});

export const tool = pageTool(waitForTool, { name: 'wait_for' });

function describeTarget(selector, text) {
  if (selector !== undefined && text !== undefined) return `selector "${selector}" with text "${text}"`;
  return selector !== undefined ? `selector "${selector}"` : `text "${text}"`;
}

function diagnose(last, problem, selector, text, gone) {
  if (!last) return problem ? ` (${problem})` : '';
  if (gone) return ` (${last.visible} visible match${last.visible === 1 ? '' : 'es'})`;
  if (selector !== undefined && last.present > 0) {
    return text !== undefined
      ? ` (${last.present} element(s) match the selector, but none visible contains the text)`
      : ` (${last.present} element(s) match it, but none is visible)`;
  }
  if (selector !== undefined) return ' (no element matches the selector)';
  return ' (the visible text of the page does not contain it)';
}

// Sums the frames' answers; the first visible match describes the element.
function combine(results) {
  const out = { visible: 0, present: 0, sample: null, invalid: null };
  for (const r of results ?? []) {
    const v = r?.result;
    if (!v) continue;
    if (v.invalid) out.invalid = v.invalid;
    out.visible += v.visible ?? 0;
    out.present += v.present ?? 0;
    if (!out.sample && v.sample) out.sample = v.sample;
  }
  return out;
}

// Runs in every frame (isolated world); self-contained. Text matching is
// case-insensitive and whitespace-insensitive, over rendered (visible) text.
// Answers with the URL of the document it read (stack/reads.js).
function probe(args) {
  const { protocol, origin, href } = location;
  const url = (protocol === 'about:' || protocol === 'blob:') && origin && origin !== 'null' ? `${origin}/` : href;
  return { ...probeIn(args), url };

  function probeIn({ selector, text }) {
    const norm = (s) => String(s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
    const needle = text !== undefined ? norm(text) : null;
    const isVisible = (el) => {
      if (!el.isConnected) return false;
      if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 || r.height > 0;
    };
    const describe = (el) => {
      let s = `<${el.localName}`;
      if (el.id) s += ` id="${el.id}"`;
      const cls = typeof el.className === 'string' ? el.className.trim() : '';
      if (cls) s += ` class="${cls.slice(0, 60)}"`;
      s += '>';
      const t = (el.innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
      return t ? `${s} "${t.length > 80 ? `${t.slice(0, /[\uD800-\uDBFF]/.test(t[79]) ? 79 : 80)}…` : t}"` : s; // on whole code points
    };
    if (selector !== undefined) {
      let all;
      try {
        all = [...document.querySelectorAll(selector)];
      } catch (e) {
        return { invalid: e.message };
      }
      let matches = all.filter(isVisible);
      if (needle !== null) matches = matches.filter((el) => norm(el.innerText).includes(needle));
      return { present: all.length, visible: matches.length, sample: matches[0] ? describe(matches[0]) : null };
    }
    const body = document.body;
    if (!body || !norm(body.innerText).includes(needle)) return { present: 0, visible: 0 };
    // The innermost visible element holding the whole text, to show what matched.
    let el = body;
    for (let descended = true; descended;) {
      descended = false;
      for (const child of el.children) {
        if (norm(child.innerText).includes(needle) && isVisible(child)) {
          el = child;
          descended = true;
          break;
        }
      }
    }
    return { present: 1, visible: 1, sample: describe(el) };
  }
}
