// click {ref|selector, button?, doubleClick?}: a trusted click on the element.
// (docs/page_tools.md; every action answers a short account: the element, then
// what followed — navigation, dialog, new tab, its new state and name, the
// page's text it changed.)

import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { account, afterState, assertNoDialog, clickAt, navResult } from './shared/act.js';
import { withEffects } from './shared/effects.js';
import { locate } from './shared/targets.js';

async function clickTool(tabId, { ref, selector, button = 'left', doubleClick = false }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  const loc = await locate(tabId, { ref, selector }, { signal });
  if (loc.state?.disabled) throw new ToolError(`${loc.desc} is disabled — it cannot be clicked now`);
  const fx = await withEffects(tabId, (siteChecked) => clickAt(tabId, loc, { button, doubleClick, signal, deferReach: true, siteChecked }),
    { frameId: loc.frameId, signal, recheckSite, target: loc, armed: true, overlapSiteCheck: true, texts: true });
  const how = `${doubleClick ? 'double-clicked' : 'clicked'} ${loc.desc}${button !== 'left' ? ` (${button} button)` : ''}`;
  return navResult(textResult(account(how, loc.note, await afterState(tabId, loc.frameId, loc.args, loc.state, fx), fx.effects)), fx);
}

export const tool = pageTool(clickTool, { debugger: 'required', name: 'click', acts: true });
