// Runs a form tool (source "form" or "declarative", made by forms_isolated.js):
// reads its descriptor from our isolated world — never from the page's own,
// which could aim our trusted input (docs/policy.md "Threat model"), checks
// the arguments, fills
// the fields with trusted input as fill_form does, then submits with a trusted
// click on the form's submit button (requestSubmit() when it has none) and
// answers as click does (docs/protocol.md "The page's own tools").
//
// Errors: a tab that is gone (-32001) and a document that is no longer the
// one the call names (-32003, checked before anything is done) are thrown as
// RpcError, the codes owntool.call answers with; anything else becomes an
// isError result. The answer says on which site the form was submitted and
// which fields went out with values the call did not set (the page's: a
// script-set value, a hidden field), and, when the submit took the tab to
// another page, what that page says (result_page.js: a declarative form's
// JSON-LD or text, another form's main content), with the URL of the
// document read for the host to decide. Secret values — typed into a
// password field, or held by a secret field of the form (sentInPage) — are
// never echoed, in a GET form's URL neither, nor in the page read.

import { Deadlines, ErrorCode, RpcError, cut, toolLabel } from '../../worker/protocol.js';
import { attach } from '../../worker/cdp.js';
import { ToolError } from '../stack/errors.js';
import { textResult } from '../stack/results.js';
import { getTab, topDocumentId } from '../stack/tab.js';
import { account, assertNoDialog, clickAt, navResult, show } from '../shared/act.js';
import { withEffects } from '../shared/effects.js';
import { PICKER_TYPES, fillOne } from '../shared/fields.js';
import { locate } from '../shared/targets.js';
import { MASK, maskSecrets } from '../shared/secrets.js';
import { landedPageBlocks, resultPageBlocks, watchResultPage } from './result_page.js';
import { DocumentGone, documentChanged, inCallDocument, inDocument } from './in_document.js';

const WATCH = 'tabbridge.formcall.v1';

// ---- arguments -----------------------------------------------------------------

const typeOk = (type, v) => {
  switch (type) {
    case 'string': return typeof v === 'string';
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'integer': return Number.isInteger(v);
    case 'boolean': return typeof v === 'boolean';
    case 'array': return Array.isArray(v);
    default: return true;
  }
};

// The error text for bad arguments, or null.
function checkArgs(schema, params, order, args) {
  const props = schema?.properties ?? {};
  const known = order;
  for (const k of Object.keys(args)) {
    if (!Object.hasOwn(params, k) || !Object.hasOwn(props, k)) {
      return `unknown parameter "${k}"; the form takes ${known.length ? known.map((n) => `"${n}"`).join(', ') : 'no parameters'}`;
    }
  }
  for (const k of Array.isArray(schema?.required) ? schema.required : []) {
    if (!Object.hasOwn(args, k) || args[k] === undefined) return `missing required parameter "${k}"`;
  }
  for (const [k, v] of Object.entries(args)) {
    const p = props[k] ?? {};
    if (p.type && !typeOk(p.type, v)) return `parameter "${k}" must be ${p.type === 'integer' ? 'an integer' : `a ${p.type}`}`;
    if (Array.isArray(p.enum) && !p.enum.includes(v)) {
      return `parameter "${k}" must be one of ${p.enum.slice(0, 20).map((x) => JSON.stringify(x)).join(', ')}${p.enum.length > 20 ? ', …' : ''}`;
    }
    if (p.type === 'array') {
      const items = p.items ?? {};
      for (const x of v) {
        if (items.type && !typeOk(items.type, x)) return `parameter "${k}" must hold ${items.type}s`;
        if (Array.isArray(items.enum) && !items.enum.includes(x)) {
          return `parameter "${k}": ${JSON.stringify(x)} is not one of ${items.enum.slice(0, 20).map((y) => JSON.stringify(y)).join(', ')}`;
        }
      }
    }
  }
  return null;
}

// ---- in the page (ISOLATED world; these run as page scripts) ---------------------

// Sets the value of an input Input.insertText cannot fill.
function setValueInPage(selector, value) {
  const el = document.querySelector(selector);
  if (!el) return { error: `no element matches selector "${selector}" — the form changed` };
  if (el.disabled || el.matches(':disabled')) return { error: 'the field is disabled' };
  if (el.readOnly) return { error: 'the field is read-only' };
  el.focus({ preventScroll: true });
  el.value = value;
  if (el.value !== value && !(el.type === 'range' && Number(el.value) === Number(value)) &&
    !(el.type === 'color' && el.value.toLowerCase() === value.toLowerCase())) {
    const got = el.value;
    return { error: `the field did not take ${JSON.stringify(value)} (it holds ${JSON.stringify(got)}): wrong format?` };
  }
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  let label = (el.getAttribute('aria-label') || el.labels?.[0]?.textContent || el.name || '').replace(/\s+/g, ' ').trim();
  if (label.length > 60) label = label.slice(0, /[\uD800-\uDBFF]/.test(label[59]) ? 59 : 60); // on whole code points (runs in the page: no imports)
  return { value: el.value, desc: `${el.type} "${label}"` };
}

// Watches the next submit and the invalid events of constraint validation;
// remembers what the page's live regions said before.
function armWatch(key) {
  const k = Symbol.for(key);
  window[k]?.off?.();
  const LIVE = '[role="alert"], [role="status"], [aria-live="assertive"], [aria-live="polite"]';
  const said = new Map();
  for (const el of document.querySelectorAll(LIVE)) said.set(el, el.textContent.replace(/\s+/g, ' ').trim());
  const st = { submitted: false, event: null, invalid: [], said, LIVE };
  const onSubmit = (e) => { st.submitted = true; st.event = e; };
  const onInvalid = (e) => { st.invalid.push(e.target); };
  document.addEventListener('submit', onSubmit, true);
  document.addEventListener('invalid', onInvalid, true);
  st.off = () => {
    document.removeEventListener('submit', onSubmit, true);
    document.removeEventListener('invalid', onInvalid, true);
  };
  window[k] = st;
  return true;
}

// What the watch saw, and the form's invalid fields.
function readWatch(key, formSel) {
  const st = window[Symbol.for(key)];
  st?.off?.();
  const form = document.querySelector(formSel);
  const nameOf = (el) => el.name || el.id || el.localName;
  const invalid = [];
  const seen = new Set();
  const add = (el) => {
    if (seen.has(el) || !el.validationMessage) return;
    seen.add(el);
    invalid.push({ name: nameOf(el), message: el.validationMessage.replace(/\s+/g, ' ').trim() });
  };
  for (const el of st?.invalid ?? []) add(el);
  // A submit blocked by validation without invalid events seen (we armed late).
  if (form && !st?.submitted) for (const el of form.elements) if (el.willValidate && !el.checkValidity?.()) add(el);
  // What the page's live regions say now that they did not before (its own
  // validation errors, "saved", …).
  const says = [];
  if (st) {
    for (const el of document.querySelectorAll(st.LIVE)) {
      const text = el.textContent.replace(/\s+/g, ' ').trim();
      if (!text || st.said.get(el) === text || el.checkVisibility?.() === false) continue;
      says.push(text.length > 150 ? `${text.slice(0, /[\uD800-\uDBFF]/.test(text[148]) ? 148 : 149)}…` : text); // on whole code points
      if (says.length >= 3) break;
    }
  }
  return {
    says,
    armed: !!st,
    submitted: !!st?.submitted,
    prevented: !!st?.event?.defaultPrevented,
    invalid: invalid.slice(0, 10),
    formGone: !form,
  };
}

// What a submit of the form sends now (its FormData, with the submitter)
// that the call did not set (`setNames`: the fields it filled), and the
// values of its secret fields: {also: [{name, value (null: secret), hidden}],
// secrets: [value], secretNames: [name]}. A secret field is one the snapshot
// masks (page/agent/roles.js isSecret): a password; a field whose
// autocomplete says password, card number or code, one-time code; one the
// page masks with -webkit-text-security.
function sentInPage(formSel, submitSel, setNames) {
  const form = document.querySelector(formSel);
  if (!form) return null;
  const SECRET_AUTOCOMPLETE = new Set(['current-password', 'new-password', 'cc-number', 'cc-csc', 'one-time-code']);
  const isSecret = (el) => {
    if (el.localName !== 'input' && el.localName !== 'textarea') return false;
    if (el.localName === 'input' && String(el.type).toLowerCase() === 'password') return true;
    if ((el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/).some((t) => SECRET_AUTOCOMPLETE.has(t))) return true;
    const masked = getComputedStyle(el).getPropertyValue('-webkit-text-security');
    return !!masked && masked !== 'none';
  };
  const submitter = submitSel ? document.querySelector(submitSel) : null;
  let data;
  try {
    data = new FormData(form, submitter?.form === form ? submitter : null);
  } catch {
    data = new FormData(form);
  }
  const byName = new Map();
  for (const el of form.elements) {
    if (!el.name) continue;
    if (!byName.has(el.name)) byName.set(el.name, []);
    byName.get(el.name).push(el);
  }
  const set = new Set(setNames);
  const also = [];
  const secrets = [];
  const secretNames = [];
  for (const [name, value] of data) {
    if (typeof value !== 'string') continue; // a file: upload_file's
    const els = byName.get(name) ?? [];
    const secret = els.some(isSecret);
    if (secret) {
      if (value) secrets.push(value);
      secretNames.push(name);
    }
    if (set.has(name) || (submitter && els.includes(submitter))) continue;
    const hidden = els.length > 0 && els.every((el) => el.localName === 'input' && el.type === 'hidden');
    also.push({ name, value: secret ? null : value, hidden });
  }
  return { also, secrets, secretNames };
}

// "also sent …" of the answer: the fields the call did not set, named (at
// most 10), with the page's values unless secret; hidden ones by name (at
// most 5, else their count), never their values.
export function alsoSent(also) {
  if (!Array.isArray(also) || !also.length) return '';
  const name = (n) => cut(String(n).replace(/\s+/g, ' '), 40);
  const shown = also.filter((x) => !x.hidden);
  const hidden = [...new Set(also.filter((x) => x.hidden).map((x) => name(x.name)))];
  const parts = shown.slice(0, 10).map((x) => `${name(x.name)}=${x.value === null ? MASK : show(x.value)}`);
  if (shown.length > 10) parts.push(`… ${shown.length - 10} more`);
  let text = parts.length ? `also sent, set by the page (not by this call): ${parts.join(', ')}` : '';
  if (hidden.length) {
    const list = hidden.length <= 5 ? hidden.join(', ') : `${hidden.length} fields`;
    text += `${text ? '; ' : 'also sent, set by the page (not by this call): '}hidden: ${list}`;
  }
  return text;
}

// The tab's site as the policy names it (host name, and the port where it is not the scheme's).
const siteOf = (url) => {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
};

function requestSubmitInPage(formSel) {
  const form = document.querySelector(formSel);
  if (!form) return { error: 'the form is no longer in the page' };
  form.requestSubmit();
  return { ok: true };
}

// ---- the call ------------------------------------------------------------------

// What callFormTool answers, with {declarative: true}, when the page has no
// such form of ours: the browser lists the <form toolname> itself since, and
// the call is its WebMCP tool's (own_tools.js). Nothing was filled.
export const NOT_OUR_FORM = Symbol('not our form');

export async function callFormTool(tabId, documentId, name, args, { signal, deadline = Infinity, declarative = false, recheckSite } = {}) {
  // Gives up at the call's deadline (signal, from native_port.js) as a cancel
  // does; a short margin first, so the answer says what was done.
  const ownDeadline = AbortSignal.timeout(Math.max(0, Math.min(deadline - Date.now() - 500,
    Deadlines.OWN_TOOL_CALL_MS - Deadlines.ANSWER_MARGIN_MS - 500)));
  const stop = signal ? AbortSignal.any([signal, ownDeadline]) : ownDeadline;
  const secrets = new Set(); // password values: masked in whatever we answer
  secrets.names = new Set(); // secret fields' names: their values in a URL's query are masked
  const whyStopped = () => (stop.reason?.name === 'TimeoutError' ? 'gave up at the deadline' : 'cancelled');
  // From before the submit: its navigation can commit before the effects are read.
  const landing = watchResultPage(tabId, documentId);
  try {
    const r = await run(tabId, documentId, name, args ?? {}, stop, secrets, whyStopped, declarative, recheckSite, landing);
    return r === NOT_OUR_FORM ? r : mask(r, secrets);
  } catch (e) {
    if (e instanceof RpcError && (e.code === ErrorCode.TAB_NOT_FOUND || e.code === ErrorCode.DOCUMENT_CHANGED ||
      e.code === ErrorCode.PAGE_MOVED)) throw e;
    if (e instanceof DocumentGone) return textResult(`the page navigated away before the form ${toolLabel(name)} was done`, true);
    return mask(textResult(e?.message ? String(e.message) : String(e), true), secrets);
  } finally {
    landing.dispose();
  }
}

// Secret values, as they could show up in an answer: as typed, in a URL (a
// GET form puts them in the query), in a validation message (secrets.js).
const mask = (r, secrets) => maskSecrets(r, secrets, secrets.names);

async function run(tabId, documentId, name, args, signal, secrets, whyStopped, declarative, recheckSite, landing) {
  await getTab(tabId);
  if ((await topDocumentId(tabId)) !== documentId) throw documentChanged(documentId);
  if (typeof args !== 'object' || Array.isArray(args)) return textResult('arguments must be an object', true);

  const d = await inCallDocument(tabId, documentId, (n) => globalThis.__tabbridgeForms?.describe(n) ?? null, [name]);
  const t = d?._target;
  if (!d && declarative) return NOT_OUR_FORM;
  if (!d || (d.source !== 'form' && d.source !== 'declarative') || !t || typeof t.form !== 'string' || typeof t.params !== 'object' || !t.params) {
    return textResult(`the page no longer has the form ${toolLabel(name)}`, true);
  }
  // Fill in document order (executeScript hands objects back with sorted keys).
  const order = Array.isArray(t.order) ? t.order.filter((k) => Object.hasOwn(t.params, k)) : Object.keys(t.params);
  const bad = checkArgs(d.inputSchema, t.params, order, args);
  if (bad) return textResult(`${toolLabel(name)}: ${bad}`, true);

  await attach(tabId);
  assertNoDialog(tabId);

  const props = d.inputSchema?.properties ?? {};
  for (const k of order) {
    const isPassword = props[k]?.format === 'password' || t.params[k]?.type === 'password';
    if (isPassword && typeof args[k] === 'string' && args[k]) secrets.add(args[k]);
  }
  const submits = d.source === 'form' || t.autosubmit === true;
  const submitSel = typeof t.submit === 'string' && t.submit ? t.submit : null;
  const done = [];
  let failure = null;
  let aborted = false;
  let how = '';
  let submitNote = '';
  let armed = false;
  let sent = null; // sentInPage, right before the submit
  let site = '';

  // The form field a parameter fills, when its name is not the parameter's.
  const fieldOf = (key) => {
    const field = t.params[key]?.field;
    return typeof field === 'string' && field !== key ? ` (field ${JSON.stringify(cut(field, 101))})` : '';
  };

  const stillHere = async () => {
    if ((await topDocumentId(tabId)) !== documentId) throw new DocumentGone('navigated');
  };

  const fillParam = async (key, value) => {
    const p = t.params[key];
    const password = props[key]?.format === 'password' || p.type === 'password';
    const one = async (selector, v) => {
      if (typeof selector !== 'string' || !selector) throw new ToolError('the form changed — no field for it');
      const r = await fillOne(tabId, { selector, value: v }, signal);
      let text = r.text;
      if (password && typeof v === 'string' && v && text.endsWith(show(v))) text = `${text.slice(0, -show(v).length)}"${MASK}"`;
      if (r.secret) secrets.add(r.secret); // a field the page masks though the form does not call it a password
      return { ...r, text };
    };
    switch (p?.kind) {
      case 'radio':
        return one(p.selectors?.[value], true);
      case 'checkboxes': {
        const texts = [];
        for (const [v, sel] of Object.entries(p.selectors ?? {})) {
          const r = await one(sel, value.includes(v));
          texts.push(r.text);
          if (r.dialog) return { text: texts.join(', '), dialog: r.dialog };
        }
        return { text: texts.join(', ') };
      }
      case 'checkbox':
        return one(p.selector, value);
      case 'select':
        return one(p.selector, Array.isArray(value) ? value.map(String) : String(value));
      default: {
        // Inputs Input.insertText cannot fill (pickers, sliders: PICKER_TYPES):
        // their value is set in the page, then input/change are dispatched.
        if (PICKER_TYPES.has(p?.type)) {
          const r = await inDocument(tabId, documentId, setValueInPage, [p.selector, String(value)]);
          if (!r) throw new ToolError('the page did not answer');
          if (r.error) throw new ToolError(r.error);
          return { text: `${r.desc || key} = ${show(r.value)}` };
        }
        return one(p?.selector, typeof value === 'string' ? value : String(value));
      }
    }
  };

  const fx = await withEffects(tabId, async () => {
    for (const key of order) {
      if (!Object.hasOwn(args, key)) continue;
      if (signal?.aborted) {
        aborted = true;
        return {};
      }
      await stillHere();
      try {
        const r = await fillParam(key, args[key]);
        done.push(r.text);
        if (r.dialog) return r;
      } catch (e) {
        if (e instanceof DocumentGone) {
          failure = `the page navigated away before "${key}"${fieldOf(key)} was filled`;
          return {};
        }
        if (!(e instanceof ToolError)) throw e;
        failure = `parameter "${key}"${fieldOf(key)}: ${e.message}`;
        return {};
      }
    }
    if (!submits) return {};
    if (signal?.aborted) {
      aborted = true;
      return {};
    }
    await stillHere();
    armed = !!(await inDocument(tabId, documentId, armWatch, [WATCH]).catch(() => false));
    // The fields the call set, by the form's names for them.
    const setNames = order.filter((k) => Object.hasOwn(args, k)).map((k) => (typeof t.params[k]?.field === 'string' ? t.params[k].field : k));
    sent = await inDocument(tabId, documentId, sentInPage, [t.form, submitSel, setNames]).catch(() => null);
    for (const v of sent?.secrets ?? []) if (typeof v === 'string' && v.length >= 3) secrets.add(v);
    for (const n of sent?.secretNames ?? []) if (typeof n === 'string') secrets.names.add(n);
    // Right before the press: still the document the call was made for, on its site.
    const submitOn = async () => {
      await stillHere();
      await recheckSite?.();
      site = siteOf((await getTab(tabId)).url);
    };
    if (submitSel) {
      let loc;
      try {
        loc = await locate(tabId, { selector: submitSel }, { signal });
      } catch (e) {
        if (!(e instanceof ToolError)) throw e;
        failure = `the submit button: ${e.message}`;
        return {};
      }
      if (loc.state?.disabled) {
        failure = `${loc.desc} is disabled — the form is not ready to submit`;
        return {};
      }
      how = `clicked ${loc.desc}`;
      await submitOn();
      const r = await clickAt(tabId, loc, { signal });
      submitNote = loc.note || '';
      return r;
    }
    await submitOn();
    const r = await inDocument(tabId, documentId, requestSubmitInPage, [t.form]);
    if (r?.error) {
      failure = r.error;
      return {};
    }
    how = 'called requestSubmit() (the form has no submit button)';
    return {};
  }, { minWaitMs: submits ? 300 : 0, signal, recheckSite });
  const answer = (r) => navResult(r, fx); // says where the submit took the tab

  const filled = done.length
    ? `filled ${done.length} field${done.length === 1 ? '' : 's'}: ${done.join(', ')}`
    : 'filled no fields';
  if (failure) {
    return answer(textResult(account(failure, done.length ? `filled before it: ${done.join(', ')}` : 'nothing was filled', fx.effects), true));
  }
  if (aborted) return answer(textResult(account(whyStopped(), done.length ? `filled before: ${done.join(', ')}` : 'nothing was filled', fx.effects), true));
  if (!submits) {
    const sub = submitSel ? ` (selector ${JSON.stringify(submitSel)})` : '';
    return answer(textResult(account(filled, `pending form submission: the page asks the user to review and submit it — ask the user to, or call click on its submit button${sub}`, fx.effects)));
  }
  if (fx.dialog && !how) return answer(textResult(account(filled, fx.effects)));

  // Did it go? Only asked when the page stayed.
  let watch = null;
  if (!fx.navigated && !fx.dialog) {
    watch = await inDocument(tabId, documentId, readWatch, [WATCH, t.form]).catch(() => null);
  }
  if (watch?.invalid?.length && !watch.submitted) {
    const list = watch.invalid.map((i) => `"${i.name}": ${i.message}`).join('; ');
    return answer(textResult(account(filled, how, submitNote, `the browser blocked the submit — invalid fields: ${list}`, fx.effects), true));
  }
  const on = site ? `submitted on ${site}` : 'submitted';
  let outcome = '';
  if (fx.navigated) outcome = on;
  else if (fx.dialog) outcome = '';
  else if (watch?.submitted) outcome = watch.prevented ? `${on}; the page handled it without navigating` : on;
  else if (watch && armed) outcome = `no submit followed (the page handled the click on ${site || 'its page'} itself)`;
  else outcome = on;
  const says = watch?.says?.length ? `the page says: ${watch.says.map((x) => JSON.stringify(x)).join(', ')}` : '';
  const also = outcome === on ? alsoSent(sent?.also) : ''; // sent by the browser, not the page's script
  const r = textResult(account(filled, how, submitNote, outcome, also, says, fx.effects));
  // A submit that navigated answers what the page it landed on says
  // (result_page.js): a declarative form its result page's JSON-LD or text,
  // another form its main content. The host decides the URL of the document
  // read, with where the submit sent the tab (navResult).
  if (d.source === 'declarative' && fx.navigatedTo) {
    const page = await landing.read({ until: Infinity, signal });
    r.content.push(...resultPageBlocks(toolLabel(name), page));
    return navResult(r, fx, page);
  }
  if (fx.navigated && !fx.navFailed && !fx.dialog) {
    const page = await landing.read({ until: Infinity, signal, mode: 'main' });
    r.content.push(...landedPageBlocks(page));
    return navResult(r, fx, page);
  }
  return answer(r);
}
