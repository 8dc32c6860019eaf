// The page agent's states: what an element's state is (checked, expanded,
// value, disabled …) as an object, and as the snapshot's [bracketed] words.
(function (agent) {
  'use strict';

  const { collapse, cut, cutEnd, quote, VALUE_MAX } = agent.text;
  const { inputType } = agent.dom;
  const { isSecret } = agent.roles;

  const CAN_BE_DISABLED = new Set(['button', 'input', 'select', 'textarea', 'option', 'fieldset']);
  const SHOWN_TYPES = new Set(['password', 'date', 'time', 'datetime-local', 'month', 'week', 'color', 'file']);

  function stateOf(el, role) {
    const s = {};
    const tag = el.localName;
    if ((CAN_BE_DISABLED.has(tag) && el.matches(':disabled')) ||
      el.getAttribute('aria-disabled') === 'true') s.disabled = true;
    if (tag === 'input' && (inputType(el) === 'checkbox' || inputType(el) === 'radio')) {
      if (el.indeterminate) s.checked = 'mixed';
      else s.checked = el.checked;
    } else if (el.hasAttribute('aria-checked')) {
      const v = el.getAttribute('aria-checked');
      s.checked = v === 'mixed' ? 'mixed' : v === 'true';
    }
    if (el.hasAttribute('aria-pressed')) s.pressed = el.getAttribute('aria-pressed') === 'true';
    if (tag === 'summary' && el.parentElement?.localName === 'details') s.expanded = el.parentElement.open;
    else if (el.hasAttribute('aria-expanded')) s.expanded = el.getAttribute('aria-expanded') === 'true';
    if (el.getAttribute('aria-selected') === 'true') s.selected = true;
    if (role === 'heading') {
      const m = /^h([1-6])$/.exec(tag);
      s.level = m ? +m[1] : +(el.getAttribute('aria-level') || 2);
    }
    if (tag === 'select') {
      s.value = [...el.selectedOptions].map((o) => collapse(o.label || o.text)).join(', ');
      s.options = [...el.options].map((o) => collapse(o.label || o.text));
    } else if (tag === 'input' || tag === 'textarea') {
      const t = inputType(el);
      if (!['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(t)) {
        const v = el.value;
        if (isSecret(el)) {
          s.secret = true; // never its value: dots, at most 8 (snapshot, the echoes of type and fill_form)
          s.value = v ? '•'.repeat(Math.min(8, v.length)) : '';
        } else {
          s.value = v.length > 200 ? v.slice(0, cutEnd(v, 200)) : v;
          if (v.length > 200) s.valueLength = v.length;
        }
      }
      if (t === 'file' && el.files?.length) s.value = [...el.files].map((f) => f.name).join(', ');
      if (el.required) s.required = true;
      if (el.readOnly) s.readonly = true;
      if (SHOWN_TYPES.has(t)) s.type = t;
    } else if (el.isContentEditable) {
      const v = el.textContent;
      s.value = collapse(v.length > 400 ? v.slice(0, cutEnd(v, 400)) : v);
      if (v.length > 400) s.valueLength = v.length;
    }
    if (el.getAttribute('aria-required') === 'true') s.required = true;
    if (role === 'slider' || role === 'spinbutton' || role === 'progressbar') {
      if (s.value === undefined && el.hasAttribute('aria-valuenow')) s.value = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
      if (tag === 'progress') s.value = el.max ? `${Math.round((el.value / el.max) * 100)}%` : '';
    }
    return s;
  }

  function formatState(s) {
    let out = '';
    if (s.level) out += ` [level=${s.level}]`;
    if (s.checked === 'mixed') out += ' [mixed]';
    else if (s.checked) out += ' [checked]';
    if (s.pressed) out += ' [pressed]';
    if (s.selected) out += ' [selected]';
    if (s.expanded === true) out += ' [expanded]';
    else if (s.expanded === false) out += ' [collapsed]';
    if (s.type) out += ` [type=${s.type}]`;
    if (s.value) out += ` [value=${quote(cut(collapse(s.value), VALUE_MAX))}]`;
    if (s.options) {
      const shown = s.options.slice(0, 6).map((o) => cut(o, 30));
      if (s.options.length > 6) shown.push(`…+${s.options.length - 6}`);
      out += ` [options: ${shown.join(' | ')}]`;
    }
    if (s.required) out += ' [required]';
    if (s.readonly) out += ' [readonly]';
    if (s.disabled) out += ' [disabled]';
    return out;
  }

  agent.states = { stateOf, formatState };
})(globalThis.__tabbridgeAgent ??= {});
