// What the act tools share: how an action's answer is worded (account, show,
// the element's state after it), where it took the tab, and a trusted click
// on a located element.

import { dialogOf } from '../../worker/dialogs.js';
import { dialogRead } from '../stack/dialog_reads.js';
import { ToolError } from '../stack/errors.js';
import { click, fullFrameRate, hover, SHOWN_TAB } from './input.js';
import { armPressCheck, shieldFrames } from './press_point.js';
import { assertReached, pointAt, runAgent } from './targets.js';
import { withNavigatedTo } from './navigated_to.js';
import { knownTab } from '../../worker/tab_cache.js';
import { renamedClause, show } from './text_changes.js';

export { show };

export function assertNoDialog(tabId) {
  const d = dialogOf(tabId);
  if (d) throw new ToolError(`a dialog is open: ${dialogRead(tabId, d)} — call handle_dialog first`);
}

// An action's result, with where it took the tab (withEffects' navigatedTo)
// and, when the answer holds text of the page it landed on (result_page.js
// read), the URL of the document that text was read from.
export const navResult = (r, fx, landed = null) => withNavigatedTo(r, [fx?.navigatedTo, landed?.url]);

function stateChanges(before = {}, after = {}) {
  const out = [];
  if (before.checked !== after.checked && after.checked !== undefined) {
    out.push(after.checked === 'mixed' ? 'now mixed' : after.checked ? 'now checked' : 'now unchecked');
  }
  if (before.value !== after.value && after.value !== undefined) out.push(`value now ${show(after.value)}`);
  if (!!before.disabled !== !!after.disabled) out.push(after.disabled ? 'now disabled' : 'now enabled');
  if (before.expanded !== after.expanded && after.expanded !== undefined) out.push(after.expanded ? 'now expanded' : 'now collapsed');
  if (before.pressed !== after.pressed && after.pressed !== undefined) out.push(after.pressed ? 'now pressed' : 'now not pressed');
  if (!!before.selected !== !!after.selected) out.push(after.selected ? 'now selected' : 'now not selected');
  return out;
}

// The target's state after an action, as phrases (nothing if it navigated
// away): as the effects read it (withEffects' target), else asked; with its
// new name when the effects read one (withEffects' texts).
export async function afterState(tabId, frameId, args, before, fx) {
  if (fx.navigated || fx.dialog) return [];
  if (fx.after?.state) return [...stateChanges(before, fx.after.state), renamedClause(fx.after.renamed)].filter(Boolean);
  if (fx.after?.gone) return ['the element is no longer in the page'];
  try {
    const { state } = await runAgent(tabId, frameId, 'state', args, { timeoutMs: 3000 });
    return stateChanges(before, state);
  } catch (e) {
    if (e instanceof ToolError && e.stale) return ['the element is no longer in the page'];
    return [];
  }
}

export const account = (...parts) => parts.flat().filter(Boolean).join('; ');

// The events by which a click of each button counts as having reached its
// target: the press, or the click the browser makes of press and release.
const CLICK_EVENTS = {
  left: ['pointerdown', 'mousedown', 'click'],
  right: ['pointerdown', 'mousedown', 'contextmenu'],
  middle: ['pointerdown', 'mousedown', 'auxclick'],
};

// A trusted click on an element located with {watch: true} (see pointAt for
// pages with out-of-process iframes): pressed only where the browser says
// the press lands on it (press_point.js; on a target of the top document no
// frame takes the pointer meanwhile: shieldFrames), and a click the page saw land
// elsewhere is an error, never "clicked" (assertReached). opts: click's, and signal.
// deferReach: the reached check is left to withEffects, which reads it with
// the effects in one call (the result's `reach`, effects.js). siteChecked:
// withEffects' site check (overlapSiteCheck), awaited before the first input.
export async function clickAt(tabId, loc, opts = {}) {
  const { signal, deferReach = false, siteChecked } = opts;
  // A tab not in front (not its window's active tab, or a page hidden): at
  // full frame rate for the move, asked while the press check is armed.
  const cast = loc.shown && knownTab(tabId)?.active === true ? SHOWN_TAB : fullFrameRate(tabId);
  let unshield = () => {};
  try {
    const pressCheck = await armPressCheck(tabId, loc, { signal });
    await siteChecked;
    unshield = await shieldFrames(tabId, pressCheck); // before the hover: frames are painted without the pointer by the press
    const p = await pointAt(tabId, loc, (x, y) => hover(tabId, x, y, { signal, cast }), { signal });
    if (p.dialog) return p;
    const r = await click(tabId, p.x, p.y, { ...opts, pressCheck, cast });
    unshield();
    const kinds = CLICK_EVENTS[opts.button ?? 'left'] ?? CLICK_EVENTS.left;
    if (r.dialog) return r;
    if (deferReach) return { ...r, reach: { loc, kinds, what: 'click' } };
    await assertReached(tabId, loc, kinds, 'click', signal);
    return r;
  } finally {
    unshield();
    cast.stop();
  }
}
