// Forms as tools (ISOLATED world, top frame, document_start; loaded right
// before own_tools_relay.js, which merges this list with the page's WebMCP
// list and asks describe() when a form tool is called).
// docs/protocol.md "The page's own tools": source "form" (introspected) and
// "declarative" (<form toolname>, only where the browser does not list them).
//
// Why the isolated world: a form tool is run with trusted input (CDP clicks
// and typing, which a page cannot tell from the user's), aimed where the
// descriptor below says. Only our own code may write that: the page's scripts
// cannot reach this world's objects (docs/policy.md "Threat model"). The
// page sees the same DOM; what it defines on its own window does not reach here.
//
// Decisions:
// * Top document only: forms in iframes are not introspected (the registry
//   and documentId are the top document's; a call must not reach elsewhere).
// * Password fields ARE parameters: {type: string, format: "password"}; the
//   value is typed with trusted input and never echoed (description says so).
//   A form with one is not readOnly, and its description says "password fields: …".
//   A text input the page masks as one (CSS -webkit-text-security) counts as
//   a password field: its preset value is no default either.
// * Hidden inputs are NOT parameters: the page keeps their values (CSRF
//   tokens, state). Neither are readonly, disabled or unnamed fields.
// * File inputs are NOT parameters (nothing can be typed into them); the
//   description says "file field: not fillable".
// * Defaults are the values the page preset (value attribute, checked,
//   selected) when the field was first seen, not live ones; the page title in
//   descriptions is the first one seen: the tool list must not change as the
//   user types or the title counts notifications.
// * Light DOM only: forms inside shadow roots are not found.
// * Only visible forms with at least one visible, named, enabled field count
//   (at most MAX_FORM_TOOLS, document order); declarative forms are listed
//   whatever their visibility and do not count against that cap.
//
// Naming (snake_case [a-z0-9_], <= 40 chars, unique in the page with _2, _3…):
// submit button text/value (unless generic: "submit", "go", "ok", …), else the
// form's aria-label/title/name/id, else the nearest heading inside or just
// before it, else the action path's last segment, else the generic button
// text, else form_N.
//
// Captures what it uses at document_start (a habit from the main world; here
// the page cannot replace them).
(() => {
  'use strict';
  try {
    if (window.top !== window) return;
    // Injected twice (manifest, then programmatically after an update): the first stays.
    if (globalThis.__tabbridgeForms) return;

    // generated: constants MAX_FORM_TOOLS
    const MAX_FORM_TOOLS = 8;
    // end generated (codegen/generate.mjs, from common/protocol.h)
    const NAME_MAX = 40;
    const SCAN_THROTTLE_MS = 200;

    // The DOM methods and the fields-to-parameters part: forms_kit.js.
    const {
      qsa, qs, docQsa, getAttr, hasAttr, matches, closest, textContent, formElements, contains,
      collectionLength, collectionItem, allForms, URL_, watchScan,
      docTitle, locationHref, collapse, cut, visible, uniqueSelector, paramsOf, fitSchema
    } = globalThis.__tabbridgeFormKit;

    // ---- the form itself --------------------------------------------------------

    const GENERIC_BUTTONS = new Set(['submit', 'go', 'ok', 'okay', 'enter', 'continue', 'next', 'done', 'send', 'apply', 'confirm', 'yes']);

    const submitterOf = (form) => {
      let els;
      try {
        els = [...formElements(form)];
      } catch {
        return null;
      }
      return els.find((el) => (el.localName === 'button' && String(el.type).toLowerCase() === 'submit') ||
        (el.localName === 'input' && (el.type === 'submit' || el.type === 'image'))) ?? null;
    };
    const buttonText = (b) => {
      if (!b) return '';
      if (b.localName === 'input') return collapse(b.type === 'image' ? getAttr(b, 'alt') || b.value : b.value) || collapse(getAttr(b, 'aria-label'));
      return collapse(getAttr(b, 'aria-label')) || collapse(textContent(b)) || collapse(getAttr(b, 'title'));
    };

    const snake = (s) => {
      let t = String(s ?? '')
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
        .toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
      if (t.length > NAME_MAX) {
        t = t.slice(0, NAME_MAX);
        const u = t.lastIndexOf('_');
        if (u > NAME_MAX / 2) t = t.slice(0, u);
        t = t.replace(/_+$/, '');
      }
      return t;
    };

    const HEADING = 'h1, h2, h3, h4, h5, h6, [role="heading"], legend';
    const headingNear = (form) => {
      const inside = qsa(form, HEADING)[0];
      if (inside) {
        const t = collapse(textContent(inside));
        if (t) return t;
      }
      // Just before: previous siblings of the form and of its ancestors (a few levels).
      let n = form;
      for (let depth = 0; n && depth < 4; depth++, n = n.parentElement) {
        let k = 0;
        for (let s = n.previousElementSibling; s && k < 4; s = s.previousElementSibling, k++) {
          if (s.localName === 'form') break;
          const h = matches(s, HEADING) ? s : [...qsa(s, HEADING)].pop();
          if (h) {
            const t = collapse(textContent(h));
            if (t) return t;
          }
        }
      }
      return '';
    };

    const actionOf = (form, submitter) => {
      const raw = (submitter && getAttr(submitter, 'formaction')) ?? getAttr(form, 'action');
      let url;
      try {
        url = new URL_(raw || locationHref(), locationHref());
      } catch {
        url = null;
      }
      const here = new URL_(locationHref());
      const path = !url ? String(raw) : url.origin === here.origin ? url.pathname : `${url.origin}${url.pathname}`;
      let method = String((submitter && getAttr(submitter, 'formmethod')) || getAttr(form, 'method') || 'get').toLowerCase();
      if (!['get', 'post', 'dialog'].includes(method)) method = 'get';
      return { path, method: method.toUpperCase(), segment: url ? url.pathname.split('/').filter(Boolean).pop() || '' : '' };
    };

    // Base name and the human label it came from.
    const nameOf = (form, submitter, act) => {
      const btn = buttonText(submitter);
      const tries = [];
      if (btn && !GENERIC_BUTTONS.has(btn.toLowerCase())) tries.push(btn);
      tries.push(collapse(getAttr(form, 'aria-label')), collapse(getAttr(form, 'title')),
        collapse(getAttr(form, 'name')), collapse(getAttr(form, 'id')), headingNear(form),
        act.segment.replace(/\.[a-z0-9]+$/i, ''), btn);
      for (const t of tries) {
        const s = snake(t);
        if (s) return { base: s, label: cut(t, 60) };
      }
      return { base: '', label: '' };
    };

    function formSelector(form) {
      return uniqueSelector(form, []);
    }

    let pageTitle = '';
    function toolOf(form, source, used, index) {
      const formSel = formSelector(form);
      const p = paramsOf(form, formSel);
      const submitter = submitterOf(form);
      const act = actionOf(form, submitter);
      // The title when first seen: a title that counts unread mail must not
      // change the tool list every time.
      if (!pageTitle) pageTitle = cut(collapse(docTitle(document)), 60);
      const title = pageTitle;
      let name;
      let description;
      if (source === 'declarative') {
        name = collapse(getAttr(form, 'toolname'));
        description = collapse(getAttr(form, 'tooldescription')) || `Fill the form "${name}" (${act.method} ${act.path})`;
      } else {
        const n = nameOf(form, submitter, act);
        let base = n.base || `form_${index}`;
        name = base;
        for (let k = 2; used.has(name); k++) {
          const suffix = `_${k}`;
          name = `${base.slice(0, NAME_MAX - suffix.length).replace(/_+$/, '')}${suffix}`;
        }
        const label = n.label || name;
        description = `Fill and submit the form "${label}" (${act.method} ${act.path}) on "${title}"`;
      }
      used.add(name);
      const extra = [];
      if (p.passwords.length) extra.push(`password fields: ${p.passwords.map((s) => cut(s, 30)).join(', ')} (typed, never echoed)`);
      if (p.files.length) extra.push(`file field: not fillable (${p.files.map((s) => cut(s, 30)).join(', ')})`);
      if (extra.length) description += `; ${extra.join('; ')}`;
      const schema = { type: 'object', properties: p.properties };
      if (p.required.length) schema.required = p.required;
      fitSchema(schema);
      const target = {
        form: formSel,
        method: act.method,
        action: act.path,
        submit: submitter && visible(submitter) ? uniqueSelector(submitter, [`${formSel} [type="submit"]`, `${formSel} button`]) : null,
        params: p.params,
        // Document order (the descriptor crosses executeScript, which sorts keys).
        order: Object.keys(p.params),
      };
      if (source === 'declarative') target.autosubmit = hasAttr(form, 'toolautosubmit');
      return {
        name,
        source,
        description: cut(description, 1024),
        inputSchema: schema,
        readOnly: act.method === 'GET' && !p.passwords.length,
        _target: target,
        _count: p.count,
      };
    }

    function scan() {
      const out = [];
      const used = new Set();
      let forms;
      try {
        forms = [...docQsa(document, 'form')];
      } catch {
        return { tools: out };
      }
      const native = nativeDeclarative;
      // Declarative names are the page's: reserve them before making ours.
      const declared = forms.filter((f) => hasAttr(f, 'toolname') && collapse(getAttr(f, 'toolname')));
      if (!native) for (const f of declared) used.add(collapse(getAttr(f, 'toolname')));
      let n = 0;
      for (const form of forms) {
        try {
          if (hasAttr(form, 'toolname')) {
            if (native || !collapse(getAttr(form, 'toolname'))) continue;
            const t = toolOf(form, 'declarative', new Set(), 0);
            delete t._count;
            out.push(t);
            continue;
          }
          // Visibility: a form counts when one of its fields is visible (paramsOf).
          if (n >= MAX_FORM_TOOLS) continue;
          const t = toolOf(form, 'form', used, n + 1);
          if (!t._count) {
            used.delete(t.name);
            continue;
          }
          delete t._count;
          out.push(t);
          n++;
        } catch { /* one odd form must not hide the others */ }
      }
      return { tools: out };
    }

    // ---- watching (forms_kit.js watchScan) -------------------------------------

    const FORMISH = 'form, input, select, textarea, button, option, fieldset, label, legend';
    const touchesForms = (node) => {
      if (node.nodeType !== 1) return false;
      const tag = node.localName;
      if (tag === 'style' || tag === 'link') return true;
      try {
        return matches(node, FORMISH) || !!qs(node, FORMISH);
      } catch {
        return false;
      }
    };
    const touches = (r) => {
      if (r.type === 'childList') {
        for (const n of r.addedNodes) if (touchesForms(n)) return true;
        for (const n of r.removedNodes) if (touchesForms(n)) return true;
      } else if (r.type === 'attributes') {
        const el = r.target;
        if (el.nodeType !== 1) return false;
        // Style and class changes happen all the time (animations): on a
        // page without forms they cannot change a form tool, and elsewhere
        // only when they touch a form or hold one.
        const forms = collectionLength(allForms);
        if (forms === 0) return false;
        try {
          if (matches(el, FORMISH) || closest(el, 'form')) return true;
          for (let i = 0; i < forms; i++) if (contains(el, collectionItem(allForms, i))) return true;
        } catch { /* detached or odd node */ }
      }
      return false;
    };

    // What own_tools_relay.js (this world) uses. Descriptors keep their
    // _target (selectors of our own making) here; the relay sends only the
    // public part.
    let current = new Map(); // name -> descriptor of the last list
    let nativeDeclarative = false; // the browser lists <form toolname> itself
    const watcher = watchScan({
      scan,
      keep: ({ tools }) => {
        current = new Map(tools.map((t) => [t.name, t]));
      },
      touches,
      attributes: ['style', 'class', 'hidden', 'disabled', 'readonly', 'type', 'name', 'open', 'inert', 'required',
        'action', 'method', 'aria-label', 'aria-hidden', 'title', 'id', 'form',
        'toolname', 'tooldescription', 'toolparamdescription', 'toolautosubmit'],
      throttleMs: SCAN_THROTTLE_MS,
    });
    globalThis.__tabbridgeForms = watcher.api({
      describe: (name) => current.get(name) ?? null,
      setNativeDeclarative(value) {
        if (nativeDeclarative === !!value) return;
        nativeDeclarative = !!value;
        watcher.schedule();
      },
    });
    watcher.start();
  } catch { /* never throw into the page */ }
})();
