// hover {ref|selector}: moves the mouse onto the element (menus, tooltips).
// (docs/page_tools.md; every action answers a short account: the element, then
// what followed — navigation, dialog, new tab, its new state.)

import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { account, afterState, assertNoDialog, navResult } from './shared/act.js';
import { withEffects } from './shared/effects.js';
import { hover } from './shared/input.js';
import { assertReached, locate, pointAt } from './shared/targets.js';

async function hoverTool(tabId, { ref, selector }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  const loc = await locate(tabId, { ref, selector }, { signal });
  const fx = await withEffects(tabId, async () => {
    const p = await pointAt(tabId, loc, (x, y) => hover(tabId, x, y, { signal }), { signal });
    if (p.dialog) return p;
    const r = await hover(tabId, p.x, p.y, { signal });
    if (!r.dialog) await assertReached(tabId, loc, ['mousemove', 'mouseover'], 'pointer', signal);
    return r;
  }, { frameId: loc.frameId, signal, recheckSite, target: loc, armed: true });
  return navResult(textResult(account(`hovering over ${loc.desc}`, loc.note, await afterState(tabId, loc.frameId, loc.args, loc.state, fx), fx.effects)), fx);
}

export const tool = pageTool(hoverTool, { debugger: 'required', name: 'hover', acts: true });
