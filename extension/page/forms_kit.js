// The form tools' kit (ISOLATED world, top frame, document_start; loaded
// before forms_isolated.js and results_isolated.js, which take it from
// globalThis.__tabbridgeFormKit):
// the DOM methods captured at document_start, what a form's fields become
// as a tool's parameters (paramsOf, fitSchema), and the watcher that keeps a
// kind's tool list current (watchScan). forms_isolated.js reads the
// form itself, names it and watches the page; its header has the decisions.
//
// The isolated world: the page's scripts cannot reach this world's objects,
// so nothing here can be replaced by the page (docs/policy.md "Threat model").
(() => {
  'use strict';
  try {
    if (window.top !== window) return;
    if (globalThis.__tabbridgeFormKit) return;

    // generated: constants MAX_SCHEMA_BYTES
    const MAX_SCHEMA_BYTES = 8192;
    // end generated (codegen/generate.mjs, from common/protocol.h)
    const MAX_SCHEMA_CHARS = MAX_SCHEMA_BYTES - 1024; // room for escaping

    const apply = Reflect.apply;
    const method = (proto, name) => {
      const f = proto[name];
      return (self, ...args) => apply(f, self, args);
    };
    const getter = (proto, name) => {
      const g = Object.getOwnPropertyDescriptor(proto, name).get;
      return (self) => apply(g, self, []);
    };
    const qsa = method(Element.prototype, 'querySelectorAll');
    const qs = method(Element.prototype, 'querySelector');
    const docQsa = method(Document.prototype, 'querySelectorAll');
    const getAttr = method(Element.prototype, 'getAttribute');
    const hasAttr = method(Element.prototype, 'hasAttribute');
    const matches = method(Element.prototype, 'matches');
    const closest = method(Element.prototype, 'closest');
    const checkVisibility = Element.prototype.checkVisibility ? method(Element.prototype, 'checkVisibility') : null;
    const getClientRects = method(Element.prototype, 'getClientRects');
    const textContent = getter(Node.prototype, 'textContent');
    const formElements = getter(HTMLFormElement.prototype, 'elements');
    const labelsOf = getter(HTMLInputElement.prototype, 'labels');
    const selectLabels = getter(HTMLSelectElement.prototype, 'labels');
    const textareaLabels = getter(HTMLTextAreaElement.prototype, 'labels');
    const getElementById = method(Document.prototype, 'getElementById');
    const contains = method(Node.prototype, 'contains');
    const childrenOf = getter(Element.prototype, 'children');
    const firstChildOf = getter(Element.prototype, 'firstElementChild');
    const nextOf = getter(Element.prototype, 'nextElementSibling');
    const prevOf = getter(Element.prototype, 'previousElementSibling');
    const parentOf = getter(Node.prototype, 'parentElement');
    const isConnected = getter(Node.prototype, 'isConnected');
    const collectionLength = getter(HTMLCollection.prototype, 'length');
    const collectionItem = method(HTMLCollection.prototype, 'item');
    // Live: Blink keeps it current, so asking it is cheap on every mutation.
    const allForms = apply(Document.prototype.getElementsByTagName, document, ['form']);
    const cssEscape = CSS.escape;
    const MO = MutationObserver;
    const moObserve = method(MutationObserver.prototype, 'observe');
    const setTimeout_ = window.setTimeout.bind(window);
    const addEventListener_ = method(EventTarget.prototype, 'addEventListener');
    const URL_ = URL;
    const JSONstringify = JSON.stringify;
    const createObject = Object.create;
    const docTitle = getter(Document.prototype, 'title');
    const docBody = getter(Document.prototype, 'body');
    const locationHref = () => document.URL;
    const computedStyle = window.getComputedStyle.bind(window);
    const styleValue = method(CSSStyleDeclaration.prototype, 'getPropertyValue');

    const collapse = (s) => String(s ?? '').replace(/\s+/g, ' ').trim();
    // generated: text-cut (page text cut on whole code points)
    function cutEnd(s, end) {
      if (end >= s.length) return s.length;
      const c = s.charCodeAt(end - 1);
      let e = c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
      while (e > 0 && s.charCodeAt(e - 1) === 0x200d) e--;
      return e;
    }
    function cut(s, max) {
      return s.length > max ? `${s.slice(0, cutEnd(s, max - 1))}…` : s;
    }
    // end generated (codegen/generate.mjs, from extension/worker/text_cut.js)

    // ---- fields ---------------------------------------------------------------

    const SKIP_INPUT_TYPES = new Set(['hidden', 'submit', 'reset', 'button', 'image', 'file']);
    const inputType = (el) => String(el.type || 'text').toLowerCase();
    // A secret as the snapshot counts one (page/agent/roles.js isSecret): a
    // field the page draws masked, or whose autocomplete says it holds a
    // password, a card number or code, or a one-time code.
    const SECRET_AUTOCOMPLETE = new Set(['current-password', 'new-password', 'cc-number', 'cc-csc', 'one-time-code']);
    const secretField = (el) => {
      try {
        const v = styleValue(computedStyle(el), '-webkit-text-security');
        if (v && v !== 'none') return true;
      } catch { /* no style: not drawn masked */ }
      return String(getAttr(el, 'autocomplete') || '').toLowerCase().split(/\s+/).some((t) => SECRET_AUTOCOMPLETE.has(t));
    };

    const visible = (el) => (checkVisibility ? checkVisibility(el, { visibilityProperty: true }) : getClientRects(el).length > 0);

    // A label's text without the controls inside it (a textarea's text, a
    // select's options).
    const CONTROL_TAGS = new Set(['input', 'select', 'textarea', 'button', 'script', 'style']);
    const ownText = (n, depth = 0) => {
      if (n.nodeType === 3) return n.data;
      if (n.nodeType !== 1 || depth > 8 || CONTROL_TAGS.has(n.localName)) return '';
      let out = '';
      for (let c = n.firstChild; c && out.length < 200; c = c.nextSibling) out += ownText(c, depth + 1);
      return out;
    };

    const labelTextOf = (el) => {
      const aria = collapse(getAttr(el, 'aria-label'));
      if (aria) return aria;
      const by = getAttr(el, 'aria-labelledby');
      if (by) {
        const t = collapse(by.split(/\s+/).map((id) => {
          const n = getElementById(document, id);
          return n ? textContent(n) : '';
        }).join(' '));
        if (t) return t;
      }
      let labels = null;
      try {
        const tag = el.localName;
        labels = tag === 'select' ? selectLabels(el) : tag === 'textarea' ? textareaLabels(el) : labelsOf(el);
      } catch { /* not labelable */ }
      if (labels?.length) {
        const t = collapse(ownText(labels[0]));
        if (t) return t;
      }
      return '';
    };

    const describeField = (el, { password = false, groupLabel = null } = {}) => {
      const own = collapse(getAttr(el, 'toolparamdescription'));
      const parts = [];
      if (own) parts.push(own);
      else {
        // A group (radios, same-name checkboxes) is named by its legend, never by one option.
        const label = groupLabel !== null ? groupLabel : labelTextOf(el) || collapse(getAttr(el, 'title'));
        const ph = groupLabel !== null ? '' : collapse(getAttr(el, 'placeholder'));
        if (label) parts.push(label);
        if (ph && ph !== label) parts.push(label ? `(e.g. ${ph})` : ph);
      }
      let d = cut(parts.join(' '), 100);
      if (password) d = d ? `${d} — typed, never echoed` : 'password: typed, never echoed';
      return d;
    };

    const groupLabelOf = (el) => {
      const fs = closest(el, 'fieldset');
      const lg = fs && qs(fs, ':scope > legend');
      if (lg) return collapse(textContent(lg));
      const rg = closest(el, '[role="radiogroup"], [role="group"]');
      return rg ? labelTextOf(rg) : '';
    };

    const numAttr = (el, name) => {
      const v = getAttr(el, name);
      if (v === null || v.trim() === '') return null;
      const n = Number(v);
      return Number.isFinite(n) ? n : null;
    };

    // A unique selector for el: candidates that match exactly it, else its id,
    // else an nth-of-type path from body.
    const pathOf = (el) => {
      const steps = [];
      let n = el;
      const body = docBody(document);
      while (n && n !== body && n !== document.documentElement) {
        const id = n.id;
        if (id && docQsa(document, `#${cssEscape(id)}`).length === 1) {
          steps.unshift(`#${cssEscape(id)}`);
          return steps.join(' > ');
        }
        const tag = n.localName;
        let i = 1;
        for (let s = n.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === tag) i++;
        steps.unshift(`${tag}:nth-of-type(${i})`);
        n = n.parentElement;
      }
      steps.unshift(n === body ? 'body' : 'html');
      return steps.join(' > ');
    };
    const uniqueSelector = (el, candidates = []) => {
      for (const c of candidates) {
        try {
          const all = docQsa(document, c);
          if (all.length === 1 && all[0] === el) return c;
        } catch { /* bad candidate */ }
      }
      if (el.id && docQsa(document, `#${cssEscape(el.id)}`).length === 1) return `#${cssEscape(el.id)}`;
      return pathOf(el);
    };

    // Defaults are the values the page preset when we first saw the field: React
    // and others keep the value attribute in step with what the user types,
    // and the tool list must not change with every keystroke.
    const seenDefaults = new WeakMap();
    const frozen = (el, compute) => {
      if (!seenDefaults.has(el)) seenDefaults.set(el, compute());
      return seenDefaults.get(el);
    };

    const usable = (el) => !el.disabled && !matches(el, ':disabled') && !el.readOnly && !closest(el, '[inert]') && visible(el);

    // Parameter keys: model APIs refuse property names outside
    // ^[a-zA-Z0-9_.-]{1,64}$ (Rails and PHP forms have user[email], items[]).
    // A field name that fits is its own key; others are cleaned (other
    // characters → _, 64 at most) and made unique with _2, _3…; _target keeps
    // the field's real name.
    const PARAM_KEY = /^[A-Za-z0-9_.-]{1,64}$/;
    const PARAM_KEY_MAX = 64;
    function paramKeys(names) {
      const keys = new Map(); // field name -> key
      const used = new Set();
      for (const name of names) {
        if (PARAM_KEY.test(name)) {
          keys.set(name, name);
          used.add(name);
        }
      }
      for (const name of names) {
        if (keys.has(name)) continue;
        const base = name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, PARAM_KEY_MAX);
        let key = base;
        for (let k = 2; used.has(key); k++) key = `${base.slice(0, PARAM_KEY_MAX - `_${k}`.length)}_${k}`;
        keys.set(name, key);
        used.add(key);
      }
      return keys;
    }

    // Parameters of a form: {properties, required, params (for _target),
    // passwords [names], files [labels]}, keyed by parameter key (paramKeys).
    // Null-prototype maps: a field may be named __proto__ or constructor.
    function paramsOf(form, formSel) {
      const properties = createObject(null);
      const required = [];
      const params = createObject(null);
      const passwords = [];
      const files = [];
      const groups = new Map(); // name -> [elements] (radios, same-name checkboxes)
      const order = [];
      let els;
      try {
        els = [...formElements(form)];
      } catch {
        els = [];
      }
      for (const el of els) {
        const tag = el.localName;
        if (tag !== 'input' && tag !== 'select' && tag !== 'textarea') continue;
        const t = tag === 'input' ? inputType(el) : tag;
        if (t === 'file') {
          if (!el.disabled && visible(el)) files.push(labelTextOf(el) || el.name || 'file');
          continue;
        }
        if (SKIP_INPUT_TYPES.has(t)) continue;
        const name = el.name;
        if (!name || !usable(el)) continue;
        if (!groups.has(name)) {
          groups.set(name, []);
          order.push(name);
        }
        groups.get(name).push(el);
      }
      const sel = (el, extra) => {
        const n = cssEscape(el.name);
        const c = [`${formSel} [name="${n}"]`, `${formSel} ${el.localName}[name="${n}"]`];
        if (extra) c.push(`${formSel} ${el.localName}[name="${n}"]${extra}`);
        return uniqueSelector(el, c);
      };
      const keys = paramKeys(order);
      for (const name of order) {
        const key = keys.get(name);
        const list = groups.get(name);
        const el = list[0];
        const tag = el.localName;
        const t = tag === 'input' ? inputType(el) : tag;
        let prop;
        let target;
        if (t === 'radio' || (t === 'checkbox' && list.filter((x) => inputType(x) === 'checkbox').length > 1)) {
          const same = list.filter((x) => x.localName === 'input' && inputType(x) === t);
          const selectors = createObject(null); // value -> selector
          const values = [];
          for (const x of same) {
            const v = x.value;
            if (v in selectors) continue;
            selectors[v] = sel(x, `[value="${cssEscape(v)}"]`);
            values.push(v);
          }
          // The group's label (legend, radiogroup); one option's label names only that option.
          const group = groupLabelOf(el);
          const desc = group || same.length > 1 ? describeField(el, { groupLabel: group }) : describeField(el);
          const optLabels = same.map((x) => [x.value, cut(labelTextOf(x), 30)])
            .filter(([v, l]) => l && l.toLowerCase() !== v.toLowerCase()).map(([v, l]) => `${v}=${l}`);
          const d = [desc, optLabels.length ? `values: ${optLabels.join(', ')}` : ''].filter(Boolean).join('; ');
          if (t === 'radio') {
            prop = { type: 'string', enum: values };
            const checked = frozen(el, () => same.find((x) => x.defaultChecked)?.value);
            if (checked !== undefined && values.includes(checked)) prop.default = checked;
            target = { kind: 'radio', type: t, selectors };
          } else {
            prop = { type: 'array', items: { type: 'string', enum: values }, uniqueItems: true };
            prop.default = frozen(el, () => same.filter((x) => x.defaultChecked).map((x) => x.value)).filter((v) => values.includes(v));
            target = { kind: 'checkboxes', type: t, selectors };
          }
          if (d) prop.description = cut(d, 160);
          if (same.some((x) => x.required)) required.push(key);
        } else if (t === 'checkbox') {
          prop = { type: 'boolean', default: frozen(el, () => !!el.defaultChecked) };
          const d = describeField(el);
          if (d) prop.description = d;
          if (el.required) required.push(key);
          target = { kind: 'checkbox', type: t, selector: sel(el, '[type="checkbox"]') };
        } else if (t === 'select' || t === 'select-one' || t === 'select-multiple' || tag === 'select') {
          const opts = [...el.options].filter((o) => !o.disabled);
          const values = [...new Set(opts.map((o) => o.value))];
          const labelled = opts.filter((o) => collapse(o.label || o.text).toLowerCase() !== o.value.toLowerCase() && o.value !== '')
            .map((o) => `${o.value}=${cut(collapse(o.label || o.text), 30)}`);
          const desc = describeField(el);
          const d = [desc, labelled.length && labelled.length <= 12 ? `values: ${labelled.join(', ')}` : ''].filter(Boolean).join('; ');
          if (el.multiple) {
            prop = { type: 'array', items: { type: 'string', enum: values } };
            prop.default = frozen(el, () => opts.filter((o) => o.defaultSelected).map((o) => o.value)).filter((v) => values.includes(v));
            target = { kind: 'select', type: 'select-multiple', selector: sel(el) };
          } else {
            prop = { type: 'string', enum: values };
            const d0 = frozen(el, () => (opts.find((o) => o.defaultSelected) ?? (el.size <= 1 ? opts[0] : null))?.value);
            if (d0 !== undefined && values.includes(d0)) prop.default = d0;
            target = { kind: 'select', type: 'select', selector: sel(el) };
          }
          if (d) prop.description = cut(d, 300);
          if (el.required) required.push(key);
        } else {
          const password = t === 'password' || (tag === 'input' && secretField(el));
          prop = { type: 'string' };
          let kind = 'text';
          if (t === 'email') prop.format = 'email';
          else if (t === 'url') prop.format = 'uri';
          else if (password) prop.format = 'password';
          else if (t === 'date') prop.format = 'date';
          else if (t === 'time') prop.format = 'time';
          else if (t === 'datetime-local') prop.format = 'date-time';
          else if (t === 'month') prop.pattern = '^[0-9]{4}-[0-9]{2}$';
          else if (t === 'week') prop.pattern = '^[0-9]{4}-W[0-9]{2}$';
          else if (t === 'color') {
            prop.pattern = '^#[0-9a-fA-F]{6}$';
            kind = 'set';
          } else if (t === 'number' || t === 'range') {
            const step = getAttr(el, 'step');
            const stepN = step === null ? 1 : Number(step);
            const min = numAttr(el, 'min');
            const max = numAttr(el, 'max');
            const integral = step?.trim().toLowerCase() !== 'any' && Number.isInteger(stepN) && (min === null || Number.isInteger(min));
            prop = { type: integral ? 'integer' : 'number' };
            if (min !== null) prop.minimum = min;
            if (max !== null) prop.maximum = max;
            if (t === 'range') kind = 'set';
          }
          if (tag === 'input' || tag === 'textarea') {
            if (el.maxLength >= 0 && prop.type === 'string') prop.maxLength = el.maxLength;
            if (el.minLength > 0 && prop.type === 'string') prop.minLength = el.minLength;
            const pat = tag === 'input' ? getAttr(el, 'pattern') : null;
            if (pat && prop.type === 'string' && !prop.pattern) prop.pattern = `^(?:${pat})$`;
          }
          const hint = { date: 'YYYY-MM-DD', time: 'HH:MM', 'datetime-local': 'YYYY-MM-DDTHH:MM, local time', month: 'YYYY-MM', week: 'YYYY-Www' }[t];
          const range = (t === 'date' || t === 'time' || t === 'datetime-local' || t === 'month' || t === 'week') &&
            (el.min || el.max) ? `${el.min ? ` from ${el.min}` : ''}${el.max ? ` to ${el.max}` : ''}` : '';
          const d = [describeField(el, { password }), hint ? `${hint}${range}` : ''].filter(Boolean).join('; ');
          if (d) prop.description = d;
          // The value the page preset as default (never a password's). Not the
          // live value: the list must not change while the user types.
          const v = frozen(el, () => el.defaultValue);
          if (!password && v !== '') {
            if (prop.type === 'integer' || prop.type === 'number') {
              const n = Number(v);
              if (Number.isFinite(n)) prop.default = n;
            } else prop.default = cut(v, 200);
          }
          if (el.required) required.push(key);
          if (password) passwords.push(labelTextOf(el) || name);
          target = { kind, type: t, selector: sel(el) };
        }
        properties[key] = prop;
        params[key] = { ...target, field: name };
      }
      return { properties, required, params, passwords, files, count: order.length };
    }

    // Keeps the schema under the host's size limit: drops descriptions of
    // options, then long enums, then defaults.
    function fitSchema(schema) {
      const size = () => JSONstringify(schema).length;
      if (size() <= MAX_SCHEMA_CHARS) return schema;
      const props = Object.values(schema.properties);
      for (const p of props) if (p.description) p.description = p.description.replace(/; values: .*$/, '');
      if (size() <= MAX_SCHEMA_CHARS) return schema;
      for (const p of props) {
        const holder = p.items || p;
        if (holder.enum && holder.enum.length > 20) {
          const n = holder.enum.length;
          delete holder.enum;
          p.description = cut(`${p.description ? `${p.description}; ` : ''}one of ${n} options (value or label)`, 160);
        }
      }
      if (size() <= MAX_SCHEMA_CHARS) return schema;
      for (const p of props) delete p.default;
      for (const p of props) if (p.description) p.description = cut(p.description, 40);
      return schema;
    }

    // ---- watching -----------------------------------------------------------------

    // The watcher a tool kind (forms_isolated.js, results_isolated.js) keeps
    // its list current with: scan() -> {tools, …} re-runs, throttled, on the
    // mutations touches(record) picks out and on DOMContentLoaded, load and
    // pageshow; onChange's listener hears when the tools' JSON differs from
    // the last scan's or list()'s. Scans are throttleMs apart, or costFactor
    // times the last scan's run time when that is longer (a scan runs on the
    // page's main thread). keep(scan) holds what list() found for later calls.
    // Returns {api(extra): the frozen object a kind publishes, schedule: a
    // scan soon, start(): watching from now}.
    const watchScan = ({ scan, keep, touches, attributes, characterData = false, throttleMs, costFactor = 0 }) => {
      let last = null;
      let pending = false;
      let lastScanAt = 0;
      let lastScanCost = 0;
      let onChange = null;

      const report = () => {
        pending = false;
        lastScanAt = Date.now();
        let sig;
        try {
          sig = JSONstringify(scan().tools);
        } catch {
          return;
        } finally {
          lastScanCost = Date.now() - lastScanAt;
        }
        if (sig === last) return;
        last = sig;
        try {
          onChange?.();
        } catch { /* the relay's to handle */ }
      };
      const schedule = () => {
        if (pending) return;
        pending = true;
        const gap = Math.max(throttleMs, costFactor * lastScanCost);
        setTimeout_(report, Math.max(30, gap - (Date.now() - lastScanAt)));
      };
      const onMutations = (records) => {
        if (pending) return;
        for (const r of records) if (touches(r)) return schedule();
      };

      const api = (extra) => Object.freeze({
        list() {
          try {
            const found = scan();
            last = JSONstringify(found.tools);
            keep(found);
            return found.tools;
          } catch {
            return [];
          }
        },
        ...extra,
        onChange(fn) {
          onChange = fn;
        },
      });
      const start = () => {
        const mo = new MO(onMutations);
        moObserve(mo, document, { childList: true, subtree: true, characterData, attributes: true, attributeFilter: attributes });
        addEventListener_(document, 'DOMContentLoaded', schedule);
        addEventListener_(window, 'load', schedule);
        addEventListener_(window, 'pageshow', schedule);
        schedule();
      };
      return { api, schedule, start };
    };

    globalThis.__tabbridgeFormKit = Object.freeze({
      qsa, qs, docQsa, getAttr, hasAttr, matches, closest, textContent, formElements, contains,
      collectionLength, collectionItem, allForms, URL_, watchScan,
      JSONstringify, docTitle, locationHref, collapse, cut, visible, uniqueSelector, paramsOf, fitSchema,
      // for result lists (results_isolated.js)
      childrenOf, firstChildOf, nextOf, prevOf, parentOf, isConnected, getElementById, docBody,
    });
  } catch { /* never throw into the page */ }
})();
