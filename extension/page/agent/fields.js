// The page agent's fields and forms: focusing a text field for typing, what
// kind of field an element is, choosing <select> options, setting a date or
// colour picker's value, an element's state, a form's default button and its
// submit watch, what a link or image points at, and where the focus is.
(function (agent) {
  'use strict';

  const { collapse, quote } = agent.text;
  const { inputType, shadowOf } = agent.dom;
  const { current, ensure, refOf, resolve } = agent.registry;
  const { isSecret, isTexty, roleOf } = agent.roles;
  const { describe } = agent.names;
  const { stateOf } = agent.states;

  function focusOp(a) {
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const desc = describe(el);
    if (!isTexty(el)) {
      const tag = el.localName;
      const hint = tag === 'select' ? 'use select_option' : tag === 'input' && ['checkbox', 'radio'].includes(inputType(el))
        ? 'use click or fill_form' : tag === 'input' && ['color', 'range'].includes(inputType(el)) ? 'use fill_form'
          : 'type into a textbox, or click it first and use press_key';
      return { error: `${desc} does not take text — ${hint}`, desc };
    }
    if (el.matches(':disabled')) return { error: `${desc} is disabled`, desc };
    if (el.readOnly) return { error: `${desc} is read-only`, desc };
    el.focus({ preventScroll: true });
    if (el.localName === 'input' || el.localName === 'textarea') {
      if (a.clear) el.select();
      else {
        try {
          const n = el.value.length;
          el.setSelectionRange(n, n);
        } catch { /* email/number inputs have no selection API */ }
      }
    } else {
      const sel = el.ownerDocument.getSelection();
      const range = el.ownerDocument.createRange();
      range.selectNodeContents(el);
      if (!a.clear) range.collapse(false);
      sel.removeAllRanges();
      sel.addRange(range);
    }
    let active = el.ownerDocument.activeElement;
    while (active && shadowOf(active)?.activeElement) active = shadowOf(active).activeElement;
    const focused = active === el || (el.isContentEditable && el.contains(active));
    if (a.watch) agent.pointer.watch(el, a.startAt); // what the typing reaches (pointer.js)
    return { desc, type: el.localName === 'input' ? inputType(el) : undefined, focused: focused && el.ownerDocument.hasFocus(), note: res.note, empty: !(el.value ?? el.textContent), secret: isSecret(el) };
  }

  function fieldInfo(a) {
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const role = roleOf(el);
    const s = stateOf(el, role);
    let kind = 'other';
    if (el.localName === 'select') kind = 'select';
    else if (role === 'checkbox' || role === 'switch' || role === 'menuitemcheckbox') kind = 'checkbox';
    else if (role === 'radio' || role === 'menuitemradio') kind = 'radio';
    else if (isTexty(el)) kind = 'text';
    return { desc: describe(el), kind, checked: s.checked, state: s, disabled: !!s.disabled, type: el.localName === 'input' ? inputType(el) : undefined };
  }

  // An input a date/time/colour picker fills (the tools' PICKER_TYPES,
  // tools/shared/fields.js): typing does not reach it, so its value is set
  // with the native setter, then input and change as a user's pick fires. A
  // value the browser refuses (sanitized to something else) puts the old one
  // back, fires nothing and answers {refused, got}.
  function setValueOp(a) {
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const desc = describe(el);
    if (el.localName !== 'input') return { error: `${desc} is not an <input>`, desc };
    if (el.matches(':disabled')) return { error: `${desc} is disabled`, desc };
    if (el.readOnly) return { error: `${desc} is read-only`, desc };
    const type = inputType(el);
    const want = String(a.value);
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const before = el.value;
    el.scrollIntoViewIfNeeded?.(true);
    el.focus({ preventScroll: true });
    setter.call(el, want);
    const got = el.value;
    const took = got === want || (type === 'range' && want.trim() !== '' && Number(got) === Number(want)) ||
      (type === 'color' && got.toLowerCase() === want.toLowerCase());
    if (!took) {
      setter.call(el, before);
      return { desc, type, refused: true, got };
    }
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { desc, type, value: el.value, note: res.note };
  }

  function selectOp(a) {
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const desc = describe(el);
    if (el.localName !== 'select') {
      return { error: `${desc} is not a <select> — click it to open it, then click the option`, desc };
    }
    if (el.matches(':disabled')) return { error: `${desc} is disabled`, desc };
    const opts = [...el.options];
    const label = (o) => collapse(o.label || o.text);
    const chosen = [];
    for (const v of a.values) {
      const o = opts.find((x) => x.value === v) || opts.find((x) => label(x) === collapse(v)) ||
        opts.find((x) => label(x).toLowerCase() === collapse(v).toLowerCase());
      if (!o) {
        const list = opts.slice(0, 25).map((x) => quote(label(x))).join(', ') + (opts.length > 25 ? `, …+${opts.length - 25}` : '');
        return { error: `no option ${quote(v)} in ${desc}; options: ${list}`, desc };
      }
      if (o.disabled) return { error: `option ${quote(label(o))} of ${desc} is disabled`, desc };
      chosen.push(o);
    }
    if (!el.multiple && chosen.length > 1) return { error: `${desc} takes one value, not ${chosen.length}`, desc };
    if (!chosen.length && !el.multiple) return { error: 'values is empty: give the option to select', desc };
    el.scrollIntoViewIfNeeded?.(true);
    el.focus({ preventScroll: true });
    if (el.multiple) for (const o of opts) o.selected = chosen.includes(o);
    else el.selectedIndex = opts.indexOf(chosen[0]);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    // What the page made of it: its handlers may have put it back.
    if (!chosen.every((o) => o.selected)) {
      const now = [...el.selectedOptions].map((o) => quote(label(o))).join(', ') || 'nothing';
      return { error: `${desc}: the page changed the selection back (now ${now}) — take a snapshot to see why`, desc };
    }
    return { desc, selected: chosen.map(label), state: stateOf(el, roleOf(el)) };
  }

  function stateOp(a) {
    const res = resolve(a);
    if (res.error) return res;
    return { desc: describe(res.el), state: stateOf(res.el, roleOf(res.el)) };
  }

  // fill_form {submit}: the form the field belongs to and its default
  // button — what Enter in the field would press — as a ref to click; a form
  // without one is submitted with requestSubmit() (validation and submit
  // handlers run as for a user). Arms a watch on the form's submit event.
  function submitOp(a) {
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const form = el.form || el.closest('form');
    if (!form) {
      if (a.armOnly) return { noForm: true };
      return { error: `${describe(el)} is in no form — pass submitRef (the element to click) instead of submit` };
    }
    const r = ensure(a.startAt);
    const watch = r.submitWatch = { submitted: false, prevented: false, invalid: [] };
    form.addEventListener('submit', (e) => {
      watch.submitted = true;
      setTimeout(() => { watch.prevented = e.defaultPrevented; });
    }, { once: true });
    form.addEventListener('invalid', (e) => {
      watch.invalid.push(`${describe(e.target)}: ${e.target.validationMessage}`);
    }, true);
    if (a.armOnly) return { armed: true };
    const isSubmit = (b) => (b.localName === 'button' && (b.getAttribute('type') || 'submit').toLowerCase() === 'submit') ||
      (b.localName === 'input' && ['submit', 'image'].includes(inputType(b)));
    const button = [...form.elements].find(isSubmit);
    if (button) {
      if (button.matches(':disabled')) return { error: `${describe(button)} is disabled — the form is not ready to submit` };
      return { button: refOf(button, a.startAt), desc: describe(button), next: r.next };
    }
    form.requestSubmit();
    return { requested: true, desc: describe(form) };
  }

  function submitStateOp() {
    const w = current()?.submitWatch;
    return w ? { ...w } : { none: true };
  }

  function infoOp(a) {
    const res = resolve(a);
    if (res.error) return res;
    const el = res.el;
    const link = el.closest('a[href], area[href]') || el.querySelector?.('a[href]');
    return {
      desc: describe(el), tag: el.localName, href: link?.href || undefined, src: el.currentSrc || el.src || undefined,
      download: link?.getAttribute('download') ?? undefined,
    };
  }

  function activeOp() {
    let el = document.activeElement;
    while (el && shadowOf(el)?.activeElement) el = shadowOf(el).activeElement;
    if (!el || el === document.body || el === document.documentElement) return { text: 'nothing focused' };
    if (el.localName === 'iframe' || el.localName === 'frame') return { text: `focus now inside ${describe(el).replace(/^element/, 'iframe')}` };
    const ref = current()?.byEl.get(el);
    return { text: `focus now on ${describe(el)}${ref !== undefined ? ` [ref=e${ref}]` : ''}` };
  }

  agent.fields = { focusOp, fieldInfo, selectOp, setValueOp, stateOp, submitOp, submitStateOp, infoOp, activeOp };
})(globalThis.__tabbridgeAgent ??= {});
