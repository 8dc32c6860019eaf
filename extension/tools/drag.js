// drag {from, to}: drags one element onto another with trusted mouse input —
// an HTML5 drag (draggable, dragstart/drop) or a pointer-events drag (sortable
// and kanban libraries), whichever the page starts. Both ends are refs or
// CSS selectors, in one frame, both in view at once.
// (docs/page_tools.md; every action answers a short account.)

import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { account, assertNoDialog, navResult } from './shared/act.js';
import { withEffects } from './shared/effects.js';
import { dragBetween } from './shared/input.js';
import { armPressCheck } from './shared/press_point.js';
import { isRef } from './shared/refs.js';
import { assertReached, locate } from './shared/targets.js';

const targetOfText = (text) => (isRef(text) ? { ref: String(text).trim() } : { selector: text });

// In the top viewport; a frame's own viewport is not the top one (its point is mapped up).
const inView = (loc) => loc.x >= 0 && loc.y >= 0 && (loc.frameId !== 0 || !loc.viewport || (loc.x <= loc.viewport.width && loc.y <= loc.viewport.height));

async function dragTool(tabId, { from, to }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  // The target first, then the source: the source's scroll (if any) is the
  // last, and the target is measured again where that left it.
  const target = targetOfText(to);
  const first = await locate(tabId, target, { signal });
  const source = await locate(tabId, targetOfText(from), { signal });
  if (source.frameId !== first.frameId) throw new ToolError('from and to are in different frames — tabbridge drags within one frame');
  const dest = await locate(tabId, target, { scroll: false, hitTest: false, signal });
  if (!inView(dest)) {
    throw new ToolError(`${source.desc} and ${dest.desc} do not fit in the viewport together — scroll so both show (or drag in steps)`);
  }
  if (source.state?.disabled) throw new ToolError(`${source.desc} is disabled — it cannot be dragged now`);
  let mode = 'pointer';
  const fx = await withEffects(tabId, async () => {
    const pressFrom = await armPressCheck(tabId, source, { signal });
    const pressTo = await armPressCheck(tabId, dest, { signal });
    const r = await dragBetween(tabId, source, dest, { signal, pressFrom, pressTo });
    mode = r.mode;
    if (!r.dialog) await assertReached(tabId, source, ['pointerdown', 'mousedown'], 'press', signal);
    return r;
  }, { frameId: source.frameId, signal, recheckSite });
  const how = `dragged ${source.desc} onto ${dest.desc} (${mode === 'html5' ? 'HTML5 drag and drop' : 'pointer events'})`;
  return navResult(textResult(account(how, source.note, fx.effects)), fx);
}

export const tool = pageTool(dragTool, { debugger: 'required', name: 'drag', acts: true });
