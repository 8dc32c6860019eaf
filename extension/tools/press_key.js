// press_key {key}: a key or chord (Enter, Control+A, Shift+Tab) to the focused element.
// (docs/page_tools.md; every action answers a short account: the element, then
// what followed — navigation, dialog, new tab, its new state.)

import { ToolError } from './stack/errors.js';
import { ACTS_UNPINNED, pageTool } from './stack/page_tool.js';
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
  // The focus is checked before the first key goes down and again before the
  // chord's key: the page may move it into a frame of another site on a key.
  // Where the focus is decides first: a frame the policy denies ends the call
  // here; in the top document itself, no frame can take it while the chord
  // goes (focus_shield.js); each key is checked again all the same.
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

export const tool = pageTool(pressKeyTool, { debugger: 'required', name: 'press_key', acts: true, unpinned: ACTS_UNPINNED });
