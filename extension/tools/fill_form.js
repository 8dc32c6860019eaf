// fill_form {fields, submit?, submitRef?}: fills several fields, then maybe submits their form.
// (docs/page_tools.md; every action answers a short account: the element, then
// what followed — navigation, dialog, new tab, its new state.)

import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { account, assertNoDialog, clickAt, navResult } from './shared/act.js';
import { withEffects } from './shared/effects.js';
import { fillOne } from './shared/fields.js';
import { noteNext } from './shared/refs.js';
import { checkTarget, framePrefix, locate, onTarget, runAgent } from './shared/targets.js';
import { maskSecrets } from './shared/secrets.js';

// fill_form {fields, submit?, submitRef?}: fills in order; then submit: true
// clicks the default button of the first field's form (what Enter would
// press; a form without one gets requestSubmit()), or submitRef is clicked.
// Answers what was filled and whether the form was submitted.
async function fillFormTool(tabId, { fields, submit = false, submitRef }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  if (!Array.isArray(fields) || !fields.length) throw new ToolError('fields is empty: give [{ref or selector, value}, …]');
  if (submit && submitRef !== undefined) throw new ToolError('give submit or submitRef, not both');
  fields.forEach((f, i) => {
    try {
      checkTarget(f);
    } catch (e) {
      throw new ToolError(`field ${i + 1}: ${e.message}; nothing was filled`);
    }
  });
  const submitting = submit || submitRef !== undefined;
  const done = [];
  const secrets = new Set(); // values typed into password fields: masked wherever the answer shows them
  let failure = null;
  let how = '';
  let watched = null; // {frameId, args} of the element whose form's submit is watched
  const clickSubmit = async (target) => {
    const loc = await locate(tabId, target, { signal });
    if (loc.state?.disabled) throw new ToolError(`${loc.desc} is disabled — it cannot be clicked now`);
    how = `clicked ${loc.desc}`;
    return clickAt(tabId, loc, { signal });
  };
  const fx = await withEffects(tabId, async () => {
    for (let i = 0; i < fields.length; i++) {
      if (signal?.aborted) return {};
      try {
        const r = await fillOne(tabId, fields[i], signal);
        done.push(r.text);
        if (r.secret) secrets.add(r.secret);
        if (r.dialog) return r;
      } catch (e) {
        if (!(e instanceof ToolError)) throw e;
        const f = fields[i];
        failure = `field ${i + 1} (${f.ref ? `ref ${f.ref}` : `selector "${f.selector}"`}): ${e.message}`;
        return {};
      }
    }
    if (!submitting || signal?.aborted) return {};
    try {
      if (submitRef !== undefined) {
        const armed = await onTarget(tabId, { ref: submitRef }, 'submit', { armOnly: true }, { signal });
        if (armed.armed) watched = armed;
        return await clickSubmit({ ref: submitRef });
      }
      const first = { ref: fields[0].ref, selector: fields[0].selector };
      const t = await onTarget(tabId, first, 'submit', {}, { signal });
      watched = t;
      if (t.requested) {
        how = `submitted ${t.desc} with requestSubmit() (it has no submit button)`;
        return {};
      }
      await noteNext(tabId, t.next);
      return await clickSubmit({ ref: (await framePrefix(tabId, t.frameId)) + t.button });
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      failure = `submit: ${e.message}`;
      return {};
    }
  }, { minWaitMs: submitting ? 300 : 0, signal, recheckSite });
  const answer = (text, isError, submitted) => {
    const r = navResult(maskSecrets(textResult(text, isError), secrets), fx);
    r.structuredContent = { filled: done.length, submitted };
    return r;
  };
  if (failure) {
    return answer(account(failure, done.length ? `filled before it: ${done.join(', ')}` : 'nothing was filled', fx.effects), true, false);
  }
  const filled = `filled ${done.length} field${done.length === 1 ? '' : 's'}: ${done.join(', ')}`;
  if (!submitting) return answer(account(filled, fx.effects), false, false);
  // Did it go? Asked of the form only when the page stayed.
  let state = null;
  if (watched && !fx.navigated && !fx.dialog) {
    state = await runAgent(tabId, watched.frameId, 'submitState', {}, { timeoutMs: 3000 }).catch(() => null);
  }
  if (state?.invalid?.length && !state.submitted) {
    return answer(account(filled, how, `not submitted: the browser blocked it — invalid fields: ${state.invalid.join('; ')}`, fx.effects), true, false);
  }
  const submitted = fx.navigated || !!state?.submitted;
  let outcome;
  if (submitted) outcome = state?.prevented && !fx.navigated ? 'submitted; the page handled it without navigating' : 'submitted';
  else if (fx.dialog) outcome = ''; // the dialog clause says what happened
  else if (state && !state.none) outcome = 'not submitted (no submit event followed)';
  else outcome = 'no navigation followed';
  return answer(account(filled, how, outcome, fx.effects), false, submitted);
}

export const tool = pageTool(fillFormTool, { debugger: 'required', name: 'fill_form', acts: true });
