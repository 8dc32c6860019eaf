// press_key {key}: a key or chord (Enter, Control+A, Shift+Tab) to the focused element.
// (docs/page_tools.md; every action answers a short account: the element, then
// what followed — navigation, dialog, new tab, its new state.)

import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { account, assertNoDialog, navResult } from './shared/act.js';
import { withEffects } from './shared/effects.js';
import { assertFocusAllowed } from './stack/frame_guard.js';
import { shieldFocus } from './shared/focus_shield.js';
import { parseChord, pressChord } from './shared/input.js';
import { runAgent } from './shared/targets.js';

async function pressKeyTool(tabId, { key }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  const chord = await parseChord(key);
  if (chord.error) throw new ToolError(chord.error);
  // Where the focus is decides first: a frame the policy denies ends the call
  // here. Each key, down and up, is then bound to the focus as it is when it
  // goes (input.js, the input broker): on a page with frames of other sites
  // with the page held, so no frame is handed the focus between the check and
  // the key; in the top document itself no frame element can take it either
  // (focus_shield.js).
  const fx = await withEffects(tabId, async () => {
    const { inTop } = await assertFocusAllowed(tabId);
    const unshield = await shieldFocus(tabId, inTop ? 0 : null);
    try {
      return await pressChord(tabId, chord, { signal });
    } finally {
      unshield();
    }
  }, { signal, recheckSite });
  let focus = '';
  if (!fx.navigated && !fx.dialog && /^(Tab|Shift\+Tab)$/i.test(key)) {
    try {
      focus = (await runAgent(tabId, 0, 'active', {}, { timeoutMs: 3000 })).text;
    } catch { /* page busy: leave it out */ }
  }
  return navResult(textResult(account(`pressed ${key}`, focus, fx.effects)), fx);
}

export const tool = pageTool(pressKeyTool, { debugger: 'required', name: 'press_key', acts: true });
