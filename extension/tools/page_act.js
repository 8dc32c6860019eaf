// Page tools that look at and act on the focused tab: snapshot, click, type,
// fill_form, select_option, hover, scroll, press_key, screenshot, handle_dialog.
// (docs/protocol.md "Page tools": requests page.<tool> {tabId, ...args}.)
//
// Every action answers a short account: the element, then what followed
// (navigation, dialog, new tab, the element's new state) — not a snapshot.
// Every step that changes the page is given the call's signal (ctx.signal):
// once the call is cancelled or out of time, no further step acts.

import { ErrorCode, PAGE_PREFIX, RpcError } from '../worker/protocol.js';
import { registerHandler } from '../worker/native_port.js';
import { attach, attachStalled, onAttach } from '../worker/cdp.js';
import { describeDialog, dialogOf, handleDialog, onDialog } from '../worker/dialogs.js';
import { click, hover, insertText, mouseWheel, parseChord, pressChord, typeKeys } from './shared/input.js';
import { screenshot } from './screenshot.js';
import { snapshot } from './snapshot.js';
import { checkpoint, checkTarget, framePrefix, getTab, HUNG_ADVICE, locate, onTarget, PageError, pointAt, runAgent, targetOf } from './shared/targets.js';
import { noteNext } from './shared/refs.js';
import { pageHandler } from './stack/page_handler.js';
import { watchTopFrame, withNavigatedTo } from './shared/navigated_to.js';
import { maskSecrets } from './shared/secrets.js';

const result = (text, isError = false) => ({ content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const NAV_WAIT_MS = 10000;

// The page keeps thinking it has focus while the user works elsewhere, so
// focus()/typing behave as if the window were in front.
onAttach(async (tabId, send, { sessionId }) => {
  if (!sessionId) await send('Emulation.setFocusEmulationEnabled', { enabled: true });
});

function tool(name, fn, { needsDebugger = true } = {}) {
  registerHandler(PAGE_PREFIX + name, pageHandler(async (params, ctx) => {
    const { tabId, ...args } = params;
    if (!Number.isInteger(tabId)) throw new RpcError(ErrorCode.INVALID_ARGUMENT, 'tabId must be an integer');
    await getTab(tabId);
    try {
      try {
        await attach(tabId);
      } catch (e) {
        if (needsDebugger || e instanceof RpcError) throw e;
        console.info(`tabbridge: ${name} without debugger: ${e.message}`);
      }
      return await fn(tabId, args, ctx);
    } catch (e) {
      if (e instanceof PageError) return result(e.message, true);
      throw e;
    }
  }));
}

function assertNoDialog(tabId) {
  const d = dialogOf(tabId);
  if (d) throw new PageError(`a dialog is open: ${describeDialog(d)} — call handle_dialog first`);
}

// ---- what happened after an action -------------------------------------------

// Runs act(), then watches the tab for settleMs (longer while a navigation it
// started is loading). Returns {value, effects: [phrases], navigated, dialog,
// navigatedTo} (navigatedTo: the URL of the new top document, or of the one
// still loading, for the result's _meta — navResult). recheckSite (the
// call's ctx.recheckSite, page_handler.js) runs right before act: a tab that
// left the site the call was checked for is not acted on.
async function withEffects(tabId, act, { settleMs = 150, signal, recheckSite } = {}) {
  const ev = { navUrl: null, committed: null, loaded: false, navError: null, sameDoc: null, newTabs: [], dialog: null };
  const top = (d) => d.tabId === tabId && d.frameId === 0;
  const L = [
    [chrome.webNavigation.onBeforeNavigate, (d) => { if (top(d)) Object.assign(ev, { navUrl: d.url, loaded: false, navError: null }); }],
    [chrome.webNavigation.onCommitted, (d) => { if (top(d)) ev.committed = d.url; }],
    [chrome.webNavigation.onDOMContentLoaded, (d) => { if (top(d)) ev.loaded = true; }],
    [chrome.webNavigation.onErrorOccurred, (d) => { if (top(d)) ev.navError = d.error; }],
    [chrome.webNavigation.onHistoryStateUpdated, (d) => { if (top(d)) ev.sameDoc = d.url; }],
    [chrome.webNavigation.onReferenceFragmentUpdated, (d) => { if (top(d)) ev.sameDoc = d.url; }],
    [chrome.tabs.onCreated, (t) => { if (t.openerTabId === tabId) ev.newTabs.push(t); }],
  ];
  for (const [event, fn] of L) event.addListener(fn);
  const offDialog = onDialog(tabId, (d) => { ev.dialog = d; });
  let nav = null;
  try {
    nav = await watchTopFrame(tabId);
    await recheckSite?.();
    const value = await act();
    if (value?.dialog) ev.dialog = value.dialog;
    const deadline = Date.now() + NAV_WAIT_MS;
    const settleEnd = Date.now() + settleMs;
    while (!ev.dialog && !signal?.aborted) {
      const now = Date.now();
      const navPending = ev.navUrl && !ev.loaded && !ev.navError;
      if (now >= settleEnd && !navPending) break;
      if (now >= deadline) break;
      await sleep(25);
    }
    const effects = [];
    if (ev.dialog) effects.push(`dialog opened: ${describeDialog(ev.dialog)} — call handle_dialog`);
    if (ev.committed) {
      const tab = await chrome.tabs.get(tabId).catch(() => null);
      const url = tab?.url || ev.committed;
      effects.push(`navigated to ${url}${tab?.title && tab.title !== url ? ` (${tab.title})` : ''}${ev.loaded || ev.dialog ? '' : ' (still loading)'}`);
    } else if (ev.navUrl && ev.navError) {
      effects.push(ev.navError === 'net::ERR_ABORTED'
        ? `navigation to ${ev.navUrl} was aborted (a download, or cancelled by the page)`
        : `navigation to ${ev.navUrl} failed: ${ev.navError}`);
    } else if (ev.navUrl) {
      effects.push(`navigation to ${ev.navUrl} started`);
    } else if (ev.sameDoc) {
      effects.push(`URL now ${ev.sameDoc}`);
    }
    // Without its URL: the new tab may be on a site the policy keeps from the
    // session; list_tabs shows it as the policy allows (docs/policy.md).
    for (const created of ev.newTabs) effects.push(`opened new tab ${created.id} (list_tabs shows it)`);
    return { value, effects, navigated: !!(ev.committed || ev.navUrl), dialog: ev.dialog, navigatedTo: await nav.navigatedTo() };
  } finally {
    for (const [event, fn] of L) event.removeListener(fn);
    offDialog();
    nav?.dispose();
  }
}

// An action's result, with where it took the tab (withEffects' navigatedTo).
const navResult = (r, fx) => withNavigatedTo(r, fx?.navigatedTo);

const show = (v) => {
  const s = String(v ?? '').replace(/\s+/g, ' ');
  return `"${s.length > 80 ? `${s.slice(0, 79)}…` : s}"`;
};

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

// The target's state after an action, as phrases (nothing if it navigated away).
async function afterState(tabId, frameId, args, before, fx) {
  if (fx.navigated || fx.dialog) return [];
  try {
    const { state } = await runAgent(tabId, frameId, 'state', args, { timeoutMs: 3000 });
    return stateChanges(before, state);
  } catch (e) {
    if (e instanceof PageError && e.stale) return ['the element is no longer in the page'];
    return [];
  }
}

const account = (...parts) => parts.flat().filter(Boolean).join('; ');

// A trusted click on a located element (see pointAt for pages with
// out-of-process iframes). opts: click's, and signal.
async function clickAt(tabId, loc, opts = {}) {
  const { signal } = opts;
  const p = await pointAt(tabId, loc, (x, y) => hover(tabId, x, y, { signal }), { signal });
  if (p.dialog) return p;
  if (p.unverified) loc.note = [loc.note, 'the pointer could not be confirmed on it (frames still settling?)'].filter(Boolean).join('; ');
  return click(tabId, p.x, p.y, opts);
}

// ---- tools ---------------------------------------------------------------------

async function clickTool(tabId, { ref, selector, button = 'left', doubleClick = false }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  const loc = await locate(tabId, { ref, selector }, { signal });
  if (loc.state?.disabled) throw new PageError(`${loc.desc} is disabled — it cannot be clicked now`);
  const fx = await withEffects(tabId, () => clickAt(tabId, loc, { button, doubleClick, signal }), { signal, recheckSite });
  const how = `${doubleClick ? 'double-clicked' : 'clicked'} ${loc.desc}${button !== 'left' ? ` (${button} button)` : ''}`;
  return navResult(result(account(how, loc.note, await afterState(tabId, loc.frameId, loc.args, loc.state, fx), fx.effects)), fx);
}

async function hoverTool(tabId, { ref, selector }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  const loc = await locate(tabId, { ref, selector }, { signal });
  const fx = await withEffects(tabId, async () => {
    const p = await pointAt(tabId, loc, (x, y) => hover(tabId, x, y, { signal }), { signal });
    return p.dialog ? p : hover(tabId, p.x, p.y, { signal });
  }, { settleMs: 100, signal, recheckSite });
  return navResult(result(account(`hovering over ${loc.desc}`, loc.note, await afterState(tabId, loc.frameId, loc.args, loc.state, fx), fx.effects)), fx);
}

// Focuses a text field (script focus, else a real click) with its text selected
// (clear) or the caret at the end. Returns the focus op's answer.
async function focusField(tabId, target, clear, signal) {
  const t = await targetOf(tabId, target);
  let f = await runAgent(tabId, t.frameId, 'focus', { ...t.args, clear }, { signal });
  if (!f.focused) {
    const loc = await locate(tabId, target, { signal });
    const r = await clickAt(tabId, loc, { signal });
    if (r.dialog) return { ...f, dialog: r.dialog, frameId: t.frameId, args: t.args };
    f = await runAgent(tabId, t.frameId, 'focus', { ...t.args, clear }, { signal });
    if (!f.focused) throw new PageError(`could not focus ${f.desc} — click it first, then use press_key`);
  }
  return { ...f, frameId: t.frameId, args: t.args };
}

async function typeInto(tabId, f, text, clear, signal, keyEvents = false) {
  if (text.length) return keyEvents ? typeKeys(tabId, text, { signal }) : insertText(tabId, text, { signal });
  if (clear && !f.empty) return pressChord(tabId, await parseChord('Backspace'), { signal });
  return {};
}

async function typeTool(tabId, { ref, selector, text, clear = false, submit = false, keyEvents = false }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  const target = { ref, selector };
  let f;
  const fx = await withEffects(tabId, async () => {
    f = await focusField(tabId, target, clear, signal);
    if (f.dialog) return f;
    const r = await typeInto(tabId, f, text, clear, signal, keyEvents);
    if (r.dialog || !submit) return r;
    return pressChord(tabId, await parseChord('Enter'), { signal });
  }, { settleMs: submit ? 150 : 30, signal, recheckSite });
  const n = [...text].length;
  const chars = `${n} char${n === 1 ? '' : 's'}`;
  const how = `${clear ? `replaced the text of ${f.desc} with ${chars}` : `typed ${chars} into ${f.desc}`}${keyEvents ? ' key by key' : ''}`;
  let after = [];
  if (!fx.navigated && !fx.dialog) {
    try {
      const { state } = await runAgent(tabId, f.frameId, 'state', f.args, { timeoutMs: 5000 });
      if (state.value !== undefined) after.push(`value now ${show(state.value)}${state.valueLength ? ` (${state.valueLength} chars)` : ''}`);
      if (state.disabled) after.push('now disabled');
    } catch (e) {
      if (e instanceof PageError && e.stale) after = ['the element is no longer in the page'];
    }
  }
  // What was typed into a password field stays out of the answer, also where
  // the page echoes it (a GET form's URL after submit).
  const secrets = new Set(f.secret && text ? [text] : []);
  return navResult(maskSecrets(result(account(how, f.note, submit ? 'pressed Enter' : '', after, fx.effects)), secrets), fx);
}

const TRUE_WORDS = new Set(['true', 'on', 'yes', 'checked', '1', 'y']);
const FALSE_WORDS = new Set(['false', 'off', 'no', 'unchecked', '0', 'n', '']);
function toBool(v) {
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (TRUE_WORDS.has(s)) return true;
  if (FALSE_WORDS.has(s)) return false;
  return null;
}

async function fillOne(tabId, field, signal) {
  const target = { ref: field.ref, selector: field.selector };
  const info = await onTarget(tabId, target, 'fieldInfo', {}, { signal });
  const { desc } = info;
  if (info.disabled) throw new PageError(`${desc} is disabled`);
  const value = field.value;
  switch (info.kind) {
    case 'text': {
      if (typeof value !== 'string') throw new PageError(`${desc} is a text field: give a string value`);
      const f = await focusField(tabId, target, true, signal);
      if (f.dialog) return { text: `${desc}: dialog`, dialog: f.dialog };
      const r = await typeInto(tabId, f, value, true, signal);
      const secret = !!(info.state?.secret || info.state?.type === 'password' || f.secret);
      return { text: `${desc} = ${show(secret ? '•••' : value)}`, dialog: r.dialog, secret: secret && value ? value : undefined };
    }
    case 'checkbox':
    case 'radio': {
      const want = toBool(value);
      if (want === null) throw new PageError(`${desc} is a ${info.kind}: give true or false`);
      const has = info.checked === true;
      if (has === want) return { text: `${desc} already ${want ? 'checked' : 'unchecked'}` };
      if (info.kind === 'radio' && !want) throw new PageError(`${desc} cannot be unchecked — check another option of its group`);
      const loc = await locate(tabId, target, { signal });
      const r = await clickAt(tabId, loc, { signal });
      if (r.dialog) return { text: `clicked ${desc}`, dialog: r.dialog };
      const { state } = await runAgent(tabId, loc.frameId, 'state', loc.args, { timeoutMs: 3000 });
      if ((state.checked === true) !== want) throw new PageError(`clicked ${desc} but it is still ${state.checked ? 'checked' : 'unchecked'}`);
      return { text: `${desc} ${want ? 'checked' : 'unchecked'}` };
    }
    case 'select': {
      const values = Array.isArray(value) ? value.map(String) : [String(value)];
      const r = await onTarget(tabId, target, 'select', { values }, { signal });
      return { text: `${desc} = ${r.selected.map(show).join(', ')}` };
    }
    default:
      throw new PageError(`${desc} is not a form field (text, checkbox, radio or select) — use click or type`);
  }
}

// fill_form {fields, submit?, submitRef?}: fills in order; then submit: true
// clicks the default button of the first field's form (what Enter would
// press; a form without one gets requestSubmit()), or submitRef is clicked.
// Answers what was filled and whether the form was submitted.
async function fillFormTool(tabId, { fields, submit = false, submitRef }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  if (!Array.isArray(fields) || !fields.length) throw new PageError('fields is empty: give [{ref or selector, value}, …]');
  if (submit && submitRef !== undefined) throw new PageError('give submit or submitRef, not both');
  fields.forEach((f, i) => {
    try {
      checkTarget(f);
    } catch (e) {
      throw new PageError(`field ${i + 1}: ${e.message}; nothing was filled`);
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
    if (loc.state?.disabled) throw new PageError(`${loc.desc} is disabled — it cannot be clicked now`);
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
        if (!(e instanceof PageError)) throw e;
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
      if (!(e instanceof PageError)) throw e;
      failure = `submit: ${e.message}`;
      return {};
    }
  }, { settleMs: submitting ? 300 : 50, signal, recheckSite });
  const answer = (text, isError, submitted) => {
    const r = navResult(maskSecrets(result(text, isError), secrets), fx);
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

async function selectTool(tabId, { ref, selector, values }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  let r;
  const fx = await withEffects(tabId, async () => {
    r = await onTarget(tabId, { ref, selector }, 'select', { values }, { signal });
  }, { settleMs: 50, signal, recheckSite });
  return navResult(result(account(`selected ${r.selected.map(show).join(', ')} in ${r.desc}`, fx.effects)), fx);
}

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
  const done = (r, how) => ({ ...result(`${how}; now at ${r.at}`), structuredContent: { x: r.x, y: r.y } });
  if (x !== undefined || y !== undefined) {
    if ((dx ?? 0) !== 0 || (dy ?? 0) !== 0) throw new PageError('give x/y (a position) or dx/dy (a distance), not both');
    await recheckSite?.();
    const r = await run({ to: { x, y } });
    return done(r, `scrolled ${r.what} to ${[x !== undefined ? `x=${x}` : '', y !== undefined ? `y=${y}` : ''].filter(Boolean).join(', ')}`);
  }
  if (targeted && !dx && !dy) return result((await run({})).text);
  const loc = targeted ? await locate(tabId, { ref, selector }, { signal }) : null; // scrolls it into view first
  const before = await run({ dx: dx ?? 0, dy: dy ?? 0 });
  const wheel = { deltaX: dx ?? 0, deltaY: dy ?? (dx ? 0 : Math.round(before.viewport.height * 0.8)) };
  // Over the element: the centre of its visible part (a wide element may
  // overflow its scroller); over the page: a spot no inner scroller covers.
  const point = !loc ? before.point : before.visible ? { x: loc.rect.x + before.visible.x, y: loc.rect.y + before.visible.y } : loc;
  const fx = await withEffects(tabId, () => mouseWheel(tabId, point.x, point.y, wheel.deltaX, wheel.deltaY, { signal }),
    { settleMs: 0, signal, recheckSite });
  if (fx.dialog || fx.navigated) return navResult(result(account('sent the mouse wheel', fx.effects)), fx);
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

async function pressKeyTool(tabId, { key }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  const chord = await parseChord(key);
  if (chord.error) throw new PageError(chord.error);
  const fx = await withEffects(tabId, () => pressChord(tabId, chord, { signal }), { signal, recheckSite });
  let focus = '';
  if (!fx.navigated && !fx.dialog && /^(Tab|Shift\+Tab)$/i.test(key)) {
    try {
      focus = (await runAgent(tabId, 0, 'active', {}, { timeoutMs: 3000 })).text;
    } catch { /* page busy: leave it out */ }
  }
  return navResult(result(account(`pressed ${key}`, focus, fx.effects)), fx);
}

async function screenshotTool(tabId, args) {
  assertNoDialog(tabId);
  try {
    return await screenshot(tabId, args);
  } catch (e) {
    // A hung renderer never paints: say so rather than which CDP step waited.
    if (/timed out/.test(e?.message)) {
      throw new PageError(`the page did not answer in time (${e.message}): it is busy or hung (a script stuck in a loop?) — ${HUNG_ADVICE}`);
    }
    throw e;
  }
}

async function handleDialogTool(tabId, { accept, promptText }, { signal, recheckSite }) {
  if (!dialogOf(tabId)) {
    return result(attachStalled(tabId)
      ? 'no dialog tabbridge can answer is open, but the page is not responding: a dialog that opened before tabbridge attached may be blocking it — ask the user to close it, or reload the tab'
      : 'no dialog is open on this tab', true);
  }
  let r;
  const fx = await withEffects(tabId, async () => {
    checkpoint(signal, 'answering the dialog');
    r = await handleDialog(tabId, { accept, promptText });
  }, { settleMs: 150, signal, recheckSite });
  if (r.isError) return navResult(result(r.text, true), fx);
  return navResult(result(account(r.text, fx.effects)), fx);
}

async function snapshotTool(tabId, args) {
  return result(await snapshot(tabId, args));
}

export function registerActTools() {
  tool('snapshot', snapshotTool, { needsDebugger: false });
  tool('click', clickTool);
  tool('hover', hoverTool);
  tool('type', typeTool);
  tool('fill_form', fillFormTool);
  tool('select_option', selectTool);
  tool('scroll', scrollTool);
  tool('press_key', pressKeyTool);
  tool('screenshot', screenshotTool);
  tool('handle_dialog', handleDialogTool);
}

// For form_tool_call.js: a form tool fills and submits as fill_form and click do.
export { account, assertNoDialog, clickAt, fillOne, navResult, result, show, withEffects };
