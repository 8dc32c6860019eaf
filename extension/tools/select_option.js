// select_option {ref|selector, values}: picks options of a <select>.
// (docs/page_tools.md; every action answers a short account: the element, then
// what followed — navigation, dialog, new tab, its new state.)

import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { account, assertNoDialog, navResult, show } from './shared/act.js';
import { withEffects } from './shared/effects.js';
import { onTarget } from './shared/targets.js';

async function selectOptionTool(tabId, { ref, selector, values }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  let r;
  const fx = await withEffects(tabId, async () => {
    r = await onTarget(tabId, { ref, selector }, 'select', { values }, { signal });
  }, { signal, recheckSite });
  return navResult(textResult(account(`selected ${r.selected.map(show).join(', ')} in ${r.desc}`, fx.effects)), fx);
}

export const tool = pageTool(selectOptionTool, { debugger: 'required', name: 'select_option', acts: true });
