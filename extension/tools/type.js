// type {ref|selector, text, clear?, submit?, keyEvents?}: types into a text field.
// (docs/page_tools.md; every action answers a short account: the element, then
// what followed — navigation, dialog, new tab, its new state.)

import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { account, assertNoDialog, navResult, show } from './shared/act.js';
import { withEffects } from './shared/effects.js';
import { PICKER_TYPES, focusField, setPicker, typeInto } from './shared/fields.js';
import { runAgent } from './shared/targets.js';
import { maskSecrets } from './shared/secrets.js';

async function typeTextTool(tabId, { ref, selector, text, clear = false, submit = false, keyEvents = false }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  const target = { ref, selector };
  let f;
  let picked = false;
  const fx = await withEffects(tabId, async () => {
    f = await focusField(tabId, target, clear, signal);
    if (f.dialog) return f;
    // A date/time picker ignores typing: its value is set in the page, the
    // whole of text (clear or not), then Enter if submit.
    if (PICKER_TYPES.has(f.type)) {
      await setPicker(tabId, f.frameId, f.args, text, signal);
      picked = true;
      return typeInto(tabId, f, '', { signal, submit });
    }
    return typeInto(tabId, f, text, { clear, signal, keyEvents, submit });
  }, { frameId: () => f?.frameId ?? 0, signal, recheckSite });
  const n = [...text].length;
  const chars = `${n} char${n === 1 ? '' : 's'}`;
  const how = picked ? `set ${f.desc} to ${show(text)}`
    : `${clear ? `replaced the text of ${f.desc} with ${chars}` : `typed ${chars} into ${f.desc}`}${keyEvents ? ' key by key' : ''}`;
  let after = [];
  if (!fx.navigated && !fx.dialog) {
    try {
      const { state } = await runAgent(tabId, f.frameId, 'state', f.args, { timeoutMs: 5000 });
      if (state.value !== undefined) after.push(`value now ${show(state.value)}${state.valueLength ? ` (${state.valueLength} chars)` : ''}`);
      if (state.disabled) after.push('now disabled');
    } catch (e) {
      if (e instanceof ToolError && e.stale) after = ['the element is no longer in the page'];
    }
  }
  // What was typed into a password field stays out of the answer, also where
  // the page echoes it (a GET form's URL after submit).
  const secrets = new Set(f.secret && text ? [text] : []);
  return navResult(maskSecrets(textResult(account(how, f.note, submit ? 'pressed Enter' : '', after, fx.effects)), secrets), fx);
}

export const tool = pageTool(typeTextTool, { debugger: 'required', name: 'type', acts: true });
