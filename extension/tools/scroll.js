// scroll {ref|selector?, dx?, dy?, x?, y?}: scrolls the page, an element into view, or its scroller.
// (docs/page_tools.md; every action answers a short account: the element, then
// what followed — navigation, dialog, new tab, its new state.)

import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { sleep } from '../worker/time.js';
import { account, assertNoDialog, navResult } from './shared/act.js';
import { withEffects } from './shared/effects.js';
import { mouseWheel } from './shared/input.js';
import { wheelCheck } from './shared/press_point.js';
import { assertReached, locate, onTarget, runAgent } from './shared/targets.js';

// scroll: x/y scroll the page (or the element's scroller) to that position;
// dx/dy (or nothing: a page down) are a trusted mouse wheel over the page's
// centre or the element; a target alone is scrolled into view. Answers where
// the scroller is now (structuredContent {x, y}).
async function scrollTool(tabId, { ref, selector, dx, dy, x, y }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  const targeted = ref !== undefined || selector !== undefined;
  const run = (extra) => (targeted
    ? onTarget(tabId, { ref, selector }, 'scroll', extra, { signal })
    : runAgent(tabId, 0, 'scroll', extra, { signal }));
  const done = (r, how) => ({ ...textResult(`${how}; now at ${r.at}`), structuredContent: { x: r.x, y: r.y } });
  if (x !== undefined || y !== undefined) {
    if ((dx ?? 0) !== 0 || (dy ?? 0) !== 0) throw new ToolError('give x/y (a position) or dx/dy (a distance), not both');
    await recheckSite?.();
    const r = await run({ to: { x, y } });
    return done(r, `scrolled ${r.what} to ${[x !== undefined ? `x=${x}` : '', y !== undefined ? `y=${y}` : ''].filter(Boolean).join(', ')}`);
  }
  if (targeted && !dx && !dy) return textResult((await run({})).text);
  const loc = targeted ? await locate(tabId, { ref, selector }, { signal }) : null; // scrolls it into view first
  const before = await run({ dx: dx ?? 0, dy: dy ?? 0 });
  const wheel = { deltaX: dx ?? 0, deltaY: dy ?? (dx ? 0 : Math.round(before.viewport.height * 0.8)) };
  // Over the element: the point of it the pointer reaches (locate); over the
  // page: a spot no inner scroller covers.
  const point = loc ?? before.point;
  const fx = await withEffects(tabId, async () => {
    const r = await mouseWheel(tabId, point.x, point.y, wheel.deltaX, wheel.deltaY, { signal, wheelCheck: wheelCheck(tabId, { signal }) });
    if (loc && !r.dialog) await assertReached(tabId, loc, ['wheel'], 'mouse wheel', signal, { around: true });
    return r;
  }, { quietMs: 0, signal, recheckSite });
  if (fx.dialog || fx.navigated) return navResult(textResult(account('sent the mouse wheel', fx.effects)), fx);
  // The wheel scrolls on the compositor (maybe animated): read until it stops.
  let now = before;
  const deadline = Date.now() + 2000;
  for (let last = before, same = 0; Date.now() < deadline; last = now) {
    await sleep(40);
    now = await run({ dx: dx ?? 0, dy: dy ?? 0 });
    same = now.x === last.x && now.y === last.y ? same + 1 : 0;
    const moved = now.x !== before.x || now.y !== before.y;
    if ((moved && same >= 1) || same >= 6) break;
  }
  const moved = now.x !== before.x || now.y !== before.y;
  const by = [wheel.deltaX ? `dx=${wheel.deltaX}` : '', wheel.deltaY ? `dy=${wheel.deltaY}` : ''].filter(Boolean).join(', ');
  return navResult(done(now, moved ? `scrolled ${now.what} by mouse wheel (${by})` : `${now.what} did not move (mouse wheel ${by})`), fx);
}

export const tool = pageTool(scrollTool, { debugger: 'required', name: 'scroll', acts: true });
