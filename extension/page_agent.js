// The function chrome.scripting injects (ISOLATED world, one frame at a time)
// for snapshot and actions. It must be self-contained: Chrome serializes its
// source, so it may use nothing from this module's scope.
//
// pageAgent(op, args) -> plain JSON. Ops:
//   snapshot {startAt, textMax?}            -> {items, next}   items: line strings, or {frameRef, depth, head}
//   prepare  {ref|selector, scroll?}         -> {desc, x, y, rect, state, note?} | {error}
//   listen {}                               -> {} (this window hears frame announcements)
//   announce {}                              -> {token} posted to the parent window | {inline} | {top}
//   resolveFrames {tokens, frameRefs}        -> {map: {token: ref of the <iframe> it came from}}
//   frameRect {token, rect}                  -> {rect} (a child frame's rect mapped into this viewport) | {error}
//   state    {ref|selector}                  -> {desc, state} | {error}
//   focus    {ref|selector, clear}           -> {desc, focused, empty, secret} | {error}
//   fieldInfo {ref|selector}                 -> {desc, kind, checked?, state} | {error}
//   select   {ref|selector, values}          -> {desc, selected[], state} | {error}
//   scroll   {ref|selector?, dx?, dy?, to?}  -> {what, at, x, y, viewport} | {text} | {error}
//   info     {ref|selector}                  -> {desc, tag, href?, src?, download?} | {error}
//   submit   {ref|selector, armOnly?}        -> {button: local ref, desc, next} | {requested, desc} | {armed} | {error}
//   submitState {}                           -> {submitted, prevented, invalid[]} | {none}
// Every op takes notAfter (epoch ms): past it, the op does nothing ({error, expired}).
//
// Refs: a per-document registry in this world's global (element -> number,
// number -> WeakRef). Numbers start at args.startAt, which the service worker
// keeps growing per tab, so a ref never names two elements of one tab; a ref the
// registry does not hold (older document) is stale.

export function pageAgent(op, a = {}) {
  const KEY = '__tabbridgeRefs';
  const NAME_MAX = 80;
  const VALUE_MAX = 80;
  const TEXT_MAX = a.textMax || 160;
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'base', 'param', 'source', 'track', 'datalist']);
  const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton', 'treeitem']);
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
    'treeitem', 'heading', 'checkbox', 'radio', 'switch', 'clickable', 'cell', 'gridcell', 'columnheader', 'rowheader', 'tooltip']);
  const CONTAINERS = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'form', 'region']);
  const NEED_NAME = new Set(['form', 'region']); // shown only when named
  const TEXTY_INPUTS = new Set(['', 'text', 'email', 'password', 'tel', 'url', 'search', 'number', 'date', 'time',
    'datetime-local', 'month', 'week']);
  const SHOWN_TYPES = new Set(['password', 'date', 'time', 'datetime-local', 'month', 'week', 'color', 'file']);

  const collapse = (s) => String(s ?? '').replace(/\s+/g, ' ').trim();
  const cut = (s, max) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
  const quote = (s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const shadowOf = (el) => {
    try {
      return globalThis.chrome?.dom?.openOrClosedShadowRoot?.(el) ?? el.shadowRoot;
    } catch {
      return el.shadowRoot;
    }
  };
  const styleOf = (el) => el.ownerDocument.defaultView.getComputedStyle(el);

  // ---- registry ----------------------------------------------------------
  let reg = globalThis[KEY];
  if (reg && reg.doc !== document) reg = null;
  const ensureReg = () => {
    if (!reg) {
      const base = Math.max(1, a.startAt | 0);
      reg = globalThis[KEY] = { doc: document, base, next: base, byEl: new WeakMap(), byRef: new Map(), seen: new Map(), listening: new WeakSet() };
    }
    return reg;
  };
  const refOf = (el) => {
    const r = ensureReg();
    let n = r.byEl.get(el);
    if (n === undefined) {
      n = r.next++;
      r.byEl.set(el, n);
      r.byRef.set(n, new WeakRef(el));
    }
    return `e${n}`;
  };

  // Cross-origin frames announce themselves to their parent window with a
  // token (postMessage); the parent remembers token -> source window, which
  // names the <iframe> (its contentWindow) — chrome.runtime.getFrameId is not
  // available to injected scripts.
  const MSG = '__tabbridgeFrame';
  function listen(win) {
    const r = ensureReg();
    if (r.listening.has(win)) return;
    r.listening.add(win);
    win.addEventListener('message', (e) => {
      const t = e.data && e.data[MSG];
      if (typeof t === 'string' && e.source) r.seen.set(t, e.source);
    });
  }
  function announce() {
    if (window.parent === window) return { top: true };
    if (window.frameElement) return { inline: true }; // the parent's snapshot walks this document
    const token = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
    window.parent.postMessage({ [MSG]: token }, '*');
    return { token };
  }
  // Every <iframe>/<frame> of this document, its shadow roots and the
  // same-origin frames inside it.
  function allFrameEls(root = document, out = []) {
    for (const el of root.querySelectorAll('*')) {
      if (el.localName === 'iframe' || el.localName === 'frame') {
        out.push(el);
        try {
          if (el.contentDocument) allFrameEls(el.contentDocument, out);
        } catch { /* cross-origin */ }
      }
      const sr = shadowOf(el);
      if (sr) allFrameEls(sr, out);
    }
    return out;
  }
  // Waits (briefly) for the tokens' messages; answers {token: ref of its <iframe>}.
  async function resolveFrames() {
    const r = ensureReg();
    const want = new Set(a.tokens);
    const deadline = Date.now() + (a.waitMs ?? 400);
    const pending = () => {
      // Done when every placeholder iframe is matched, or every token has been seen.
      const wins = new Set();
      for (const t of want) if (r.seen.has(t)) wins.add(r.seen.get(t));
      const phs = (a.frameRefs || []).map((ref) => r.byRef.get(+ref.slice(1))?.deref()).filter(Boolean);
      const unmatched = phs.filter((f) => !wins.has(f.contentWindow));
      return unmatched.length > 0 && [...want].some((t) => !r.seen.has(t));
    };
    while (pending() && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    const frames = allFrameEls();
    const out = {};
    for (const t of want) {
      const src = r.seen.get(t);
      if (!src) continue;
      const fe = frames.find((f) => f.contentWindow === src);
      if (fe) out[t] = refOf(fe);
    }
    return { map: out };
  }

  // ---- roles, names, states ---------------------------------------------
  const inputType = (el) => (el.getAttribute('type') || '').toLowerCase();
  // A field whose value is a secret: a password input, or a text input the
  // page masks the same way (-webkit-text-security). One a "show password"
  // button switched to plain text is shown as the page shows it.
  const isSecret = (el) => {
    if (el.localName !== 'input') return false;
    if (inputType(el) === 'password') return true;
    const masked = styleOf(el).getPropertyValue('-webkit-text-security');
    return !!masked && masked !== 'none';
  };
  function roleOf(el) {
    const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
    if (explicit && explicit !== 'presentation' && explicit !== 'none' && explicit !== 'generic') return explicit;
    const tag = el.localName;
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
      case 'button': return 'button';
      case 'summary': return 'button';
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'textarea': return 'textbox';
      case 'input': {
        const t = inputType(el);
        if (t === 'hidden') return '';
        if (t === 'checkbox') return 'checkbox';
        if (t === 'radio') return 'radio';
        if (t === 'range') return 'slider';
        if (t === 'number') return 'spinbutton';
        if (t === 'search') return 'searchbox';
        if (['button', 'submit', 'reset', 'image'].includes(t)) return 'button';
        if (t === 'file') return 'button';
        if (t === 'color') return 'button';
        return el.list ? 'combobox' : 'textbox';
      }
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'img': return el.getAttribute('alt') === '' ? '' : 'img';
      case 'nav': return 'navigation';
      case 'dialog': return 'dialog';
      case 'aside': return 'complementary';
      case 'search': return 'search';
      case 'form': return 'form';
      case 'section': return 'region';
      case 'header': return el.closest('article,aside,main,nav,section') ? '' : 'banner';
      case 'footer': return el.closest('article,aside,main,nav,section') ? '' : 'contentinfo';
      case 'option': return 'option';
      case 'progress': return 'progressbar';
      default: return '';
    }
  }

  // Visible text of a subtree (flat tree, open and closed shadow roots), capped.
  function textOf(root, max = 200) {
    let out = '';
    const walk = (node) => {
      if (out.length > max) return;
      if (node.nodeType === 3) {
        out += node.data;
        return;
      }
      if (node.nodeType !== 1 && node.nodeType !== 11) return;
      if (node.nodeType === 1) {
        const tag = node.localName;
        if (SKIP.has(tag) || tag === 'select' || tag === 'textarea') return;
        if (node !== root) {
          if (node.getAttribute('aria-hidden') === 'true') return;
          const st = styleOf(node);
          if (st.display === 'none' || st.visibility === 'hidden') return;
          const label = node.getAttribute('aria-label');
          if (label) {
            out += ` ${label} `;
            return;
          }
        }
        if (tag === 'img' || (tag === 'input' && inputType(node) === 'image')) {
          out += ` ${node.getAttribute('alt') || ''} `;
          return;
        }
        if (tag === 'input') {
          if (['button', 'submit', 'reset'].includes(inputType(node))) out += ` ${node.value} `;
          return;
        }
        if (tag === 'br') {
          out += ' ';
          return;
        }
        if (tag === 'svg') {
          const t = node.querySelector('title');
          if (t) out += ` ${t.textContent} `;
          return;
        }
      }
      const sr = node.nodeType === 1 ? shadowOf(node) : null;
      const kids = sr ? sr.childNodes : node.localName === 'slot' && node.assignedNodes().length ? node.assignedNodes() : node.childNodes;
      for (const k of kids) walk(k);
      if (node.nodeType === 1 && !styleOf(node).display.startsWith('inline')) out += ' ';
    };
    walk(root);
    return collapse(out);
  }

  function byIds(el, attr) {
    const ids = (el.getAttribute(attr) || '').trim().split(/\s+/).filter(Boolean);
    if (!ids.length) return '';
    const root = el.getRootNode();
    return collapse(ids.map((id) => {
      const t = root.getElementById?.(id) ?? el.ownerDocument.getElementById(id);
      return t ? t.getAttribute('aria-label') || textOf(t) : '';
    }).join(' '));
  }

  function labelText(label, control) {
    // The label's text without the control's own content (a <select> inside a label).
    let out = '';
    const walk = (n) => {
      if (n === control) return;
      if (n.nodeType === 3) out += n.data;
      else if (n.nodeType === 1 && !SKIP.has(n.localName) && n.localName !== 'select' && n.localName !== 'textarea') {
        if (n.localName === 'img') out += ` ${n.getAttribute('alt') || ''} `;
        else for (const k of n.childNodes) walk(k);
      }
    };
    walk(label);
    return collapse(out);
  }

  // {name, fromContent}
  function nameOf(el, role) {
    let n = byIds(el, 'aria-labelledby');
    if (n) return { name: n };
    n = collapse(el.getAttribute('aria-label'));
    if (n) return { name: n };
    const tag = el.localName;
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      const t = inputType(el);
      if (tag === 'input' && ['button', 'submit', 'reset'].includes(t)) {
        return { name: collapse(el.value) || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '') };
      }
      if (tag === 'input' && t === 'image') return { name: collapse(el.getAttribute('alt') || el.value || 'Submit') };
      const labels = el.labels ? [...el.labels].map((l) => labelText(l, el)).filter(Boolean) : [];
      if (labels.length) return { name: labels.join(' ') };
      n = collapse(el.getAttribute('placeholder') || el.getAttribute('title'));
      if (n) return { name: n };
      if (tag === 'input' && t === 'file') return { name: 'Choose file' };
      return { name: '' };
    }
    if (tag === 'img' || tag === 'area') return { name: collapse(el.getAttribute('alt') || el.getAttribute('title')) };
    if (tag === 'iframe' || tag === 'frame') return { name: collapse(el.getAttribute('title') || el.getAttribute('name')) };
    if (tag === 'fieldset') {
      const legend = el.querySelector(':scope > legend');
      if (legend) return { name: textOf(legend) };
    }
    if (tag === 'table') {
      const cap = el.querySelector(':scope > caption');
      if (cap) return { name: textOf(cap) };
    }
    if (NAME_FROM_CONTENT.has(role) || tag === 'summary') {
      n = textOf(el, NAME_MAX * 3);
      if (n) return { name: n, fromContent: true };
    }
    if (el.isContentEditable) {
      n = collapse(el.getAttribute('placeholder') || el.getAttribute('aria-placeholder'));
      if (n) return { name: n };
    }
    return { name: collapse(el.getAttribute('title')) };
  }

  const isTexty = (el) => (el.localName === 'input' && TEXTY_INPUTS.has(inputType(el))) || el.localName === 'textarea' ||
    (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable));

  function stateOf(el, role) {
    const s = {};
    const tag = el.localName;
    if ((['button', 'input', 'select', 'textarea', 'option', 'fieldset'].includes(tag) && el.matches(':disabled')) ||
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
          s.value = v.length > 200 ? v.slice(0, 200) : v;
          if (v.length > 200) s.valueLength = v.length;
        }
      }
      if (t === 'file' && el.files?.length) s.value = [...el.files].map((f) => f.name).join(', ');
      if (el.required) s.required = true;
      if (el.readOnly) s.readonly = true;
      if (SHOWN_TYPES.has(t)) s.type = t;
    } else if (el.isContentEditable) {
      const v = el.textContent;
      s.value = collapse(v.length > 400 ? v.slice(0, 400) : v);
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

  function describe(el) {
    const role = roleOf(el) || (el.isContentEditable ? 'textbox' : '');
    const { name } = nameOf(el, role || 'clickable');
    if (name) return `${role || el.localName} ${quote(cut(name, 60))}`;
    let tag = el.localName;
    if (el.id) tag += `#${el.id}`;
    else if (typeof el.className === 'string' && el.className.trim()) tag += `.${el.className.trim().split(/\s+/)[0]}`;
    return role ? `${role} (${tag})` : tag;
  }

  function hrefOf(el) {
    const raw = el.getAttribute('href');
    if (!raw || /^\s*javascript:/i.test(raw)) return '';
    let u;
    try {
      u = new URL(el.href);
    } catch {
      return cut(raw, 80);
    }
    if (u.origin === location.origin) {
      const here = location.pathname + location.search;
      const s = u.pathname + u.search === here && u.hash ? u.hash : u.pathname + u.search + u.hash;
      return cut(s, 80);
    }
    return cut(u.href, 100);
  }

  // ---- snapshot ------------------------------------------------------------
  function snapshot() {
    ensureReg();
    listen(window);
    // Forget elements that are gone.
    for (const [n, w] of reg.byRef) if (!w.deref()?.isConnected) reg.byRef.delete(n);
    const items = [];
    let text = '';
    let textDepth = 0;
    const pad = (d) => '  '.repeat(d);
    const flush = () => {
      const t = collapse(text).replace(/^(\|\s*)+|(\s*\|)+$/g, '');
      text = '';
      if (t) items.push(`${pad(textDepth)}- text: ${cut(t, TEXT_MAX)}`);
    };
    const addText = (s, depth) => {
      if (!collapse(text)) textDepth = depth;
      text += s;
    };

    const visitKids = (el, depth, ctx) => {
      const sr = shadowOf(el);
      let kids;
      if (sr) kids = sr.childNodes;
      else if (el.localName === 'slot') {
        const assigned = el.assignedNodes();
        kids = assigned.length ? assigned : el.childNodes;
      } else kids = el.childNodes;
      for (const k of kids) visit(k, depth, ctx);
    };

    function visit(node, depth, ctx) {
      if (node.nodeType === 3) {
        if (!ctx.quiet && !ctx.hidden) addText(node.data, depth);
        return;
      }
      if (node.nodeType !== 1) return;
      const el = node;
      const tag = el.localName;
      if (SKIP.has(tag) || el.getAttribute('aria-hidden') === 'true' || el.inert) return;
      if (tag === 'input' && inputType(el) === 'hidden') return;
      const st = styleOf(el);
      if (st.display === 'none' || st.contentVisibility === 'hidden') return;
      const hidden = st.visibility !== 'visible';
      const inline = st.display.startsWith('inline') || st.display === 'contents';
      const cell = st.display === 'table-cell';
      if (tag === 'br') {
        addText(' ', depth);
        return;
      }
      if (tag === 'details' && !el.open) {
        const summary = [...el.children].find((c) => c.localName === 'summary');
        if (summary) visit(summary, depth, ctx);
        return;
      }

      if (tag === 'iframe' || tag === 'frame') {
        if (hidden) return;
        const r = el.getBoundingClientRect();
        if (r.width < 2 || r.height < 2) return;
        flush();
        const { name } = nameOf(el, 'iframe');
        const head = `${pad(depth)}- iframe${name ? ` ${quote(cut(name, NAME_MAX))}` : ''}:`;
        let doc = null;
        try {
          doc = el.contentDocument;
        } catch { /* cross-origin */ }
        if (doc && doc.documentElement) {
          listen(doc.defaultView);
          const mark = items.length;
          items.push(head);
          visit(doc.documentElement, depth + 1, { ...ctx, quiet: false, inClickable: false, parentPointer: false });
          flush();
          if (items.length === mark + 1) items.pop();
        } else {
          // Cross-origin: the service worker fills this in from that frame's own snapshot.
          items.push({ frameRef: refOf(el), depth: depth + 1, head });
        }
        return;
      }

      let role = roleOf(el);
      const editableRoot = el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable) &&
        !(tag === 'input' || tag === 'textarea');
      if (editableRoot && !role) role = 'textbox';
      let interactive = INTERACTIVE_ROLES.has(role) || editableRoot;
      if (tag === 'a' && !el.hasAttribute('href') && !interactive) interactive = false;
      if (!interactive && !['html', 'body', 'label'].includes(tag)) {
        const ti = el.getAttribute('tabindex');
        if ((ti !== null && +ti >= 0) || el.hasAttribute('onclick') ||
          (!ctx.inClickable && st.cursor === 'pointer' && !ctx.parentPointer)) {
          interactive = true;
          if (!role) role = 'clickable';
        }
      }
      // Icons: a clickable svg is shown (named by aria-label or <title>); others are noise.
      if (tag === 'svg' && !interactive) return;
      const childCtx = { ...ctx, parentPointer: st.cursor === 'pointer', hidden };

      if (interactive && !hidden) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 || r.height > 0) {
          flush();
          let { name, fromContent } = nameOf(el, role);
          // A big clickable region (a card, a scroller with tabindex) keeps its text as text.
          let keepText = false;
          if (fromContent && (role === 'clickable' || role === 'gridcell' || role === 'cell') && name.length > NAME_MAX) {
            name = '';
            keepText = true;
          }
          const s = stateOf(el, role);
          let line = `${pad(depth)}- ${role}${name ? ` ${quote(cut(name, NAME_MAX))}` : ''}${formatState(s)} [ref=${refOf(el)}]`;
          if (role === 'link' && tag !== 'area') {
            const h = hrefOf(el);
            if (h && h !== name) line += ` ${h}`;
          }
          items.push(line);
          const leaf = tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'svg' || editableRoot;
          if (!leaf) {
            visitKids(el, depth, { ...childCtx, quiet: ctx.quiet || (fromContent && !keepText), inClickable: true });
            flush();
          }
          return;
        }
        // No size: not shown, but its children may overflow it.
        visitKids(el, depth, { ...childCtx, quiet: true, inClickable: true });
        return;
      }

      if (role === 'heading' && !hidden && !ctx.quiet) {
        flush();
        const { name } = nameOf(el, role);
        if (name) items.push(`${pad(depth)}- heading ${quote(cut(name, NAME_MAX * 2))}${formatState(stateOf(el, role))}`);
        visitKids(el, depth, { ...childCtx, quiet: true });
        flush();
        return;
      }

      if (role === 'img' && !hidden && !ctx.quiet) {
        const { name } = nameOf(el, role);
        const r = el.getBoundingClientRect();
        if (name && r.width > 2 && r.height > 2) {
          flush();
          items.push(`${pad(depth)}- img ${quote(cut(name, NAME_MAX))}`);
        }
        return;
      }

      if (CONTAINERS.has(role) && !hidden) {
        const { name } = nameOf(el, role);
        if (!NEED_NAME.has(role) || name) {
          flush();
          const mark = items.length;
          items.push(`${pad(depth)}- ${role}${name ? ` ${quote(cut(name, NAME_MAX))}` : ''}:`);
          visitKids(el, depth + 1, childCtx);
          flush();
          if (items.length === mark + 1) items.pop();
          return;
        }
      }

      // <label for=x> / wrapping label: its text is the control's name already.
      const quiet = ctx.quiet || (tag === 'label' && !!el.control);
      if (!inline && !cell) flush();
      if (cell && collapse(text)) addText(' | ', depth);
      visitKids(el, depth, { ...childCtx, quiet });
      if (!inline && !cell) flush();
      else if (cell) addText(' ', depth);
    }

    let root = document.body || document.documentElement;
    let modal = null;
    try {
      modal = document.querySelector('dialog:modal');
    } catch { /* no :modal support */ }
    if (modal) {
      items.push('- (a modal dialog is open: the rest of the page is inert)');
      root = modal;
    }
    if (root) visit(root, 0, { quiet: false, inClickable: false, parentPointer: false, hidden: false });
    flush();
    return { items, next: reg.next };
  }

  // ---- targets -----------------------------------------------------------
  function deepQuery(root, sel) {
    const found = root.querySelector(sel);
    if (found) return found;
    for (const el of root.querySelectorAll('*')) {
      const sr = shadowOf(el);
      if (sr) {
        const f = deepQuery(sr, sel);
        if (f) return f;
      }
    }
    return null;
  }

  function resolve() {
    if (a.ref) {
      const m = /^e(\d+)$/.exec(a.localRef || '');
      if (!m) return { error: `"${a.ref}" is not a ref; refs look like e12 (from snapshot)` };
      const n = +m[1];
      if (!reg || n < reg.base) return { error: `stale ref ${a.ref}: the page changed since that snapshot — take a new snapshot`, stale: true };
      const el = reg.byRef.get(n)?.deref();
      if (!el) {
        return n >= reg.next
          ? { error: `unknown ref ${a.ref}: no snapshot gave it — take a new snapshot`, stale: true }
          : { error: `stale ref ${a.ref}: that element is no longer in the page — take a new snapshot`, stale: true };
      }
      if (!el.isConnected) return { error: `stale ref ${a.ref}: that element is no longer in the page — take a new snapshot`, stale: true };
      return { el };
    }
    if (a.selector) {
      let el;
      let count = 0;
      try {
        count = document.querySelectorAll(a.selector).length;
        el = count ? document.querySelector(a.selector) : deepQuery(document, a.selector);
      } catch (e) {
        return { error: `invalid selector "${a.selector}": ${e.message.replace(/^.*?: /, '')}` };
      }
      if (!el) return { error: `no element matches selector "${a.selector}" — take a snapshot and use a ref` };
      return { el, note: count > 1 ? `selector matched ${count} elements; used the first` : '' };
    }
    return { error: 'give ref (from snapshot) or selector' };
  }

  const winOf = (el) => el.ownerDocument.defaultView;
  const firstBox = (el) => {
    for (const r of el.getClientRects()) if (r.width > 0 && r.height > 0) return r;
    return el.getBoundingClientRect();
  };

  // Maps a rect from a same-origin child frame's viewport into its parent's.
  function intoParent(frameEl, r) {
    const fr = frameEl.getBoundingClientRect();
    const st = styleOf(frameEl);
    const sx = frameEl.offsetWidth ? fr.width / frameEl.offsetWidth : 1;
    const sy = frameEl.offsetHeight ? fr.height / frameEl.offsetHeight : 1;
    const left = fr.left + (frameEl.clientLeft + parseFloat(st.paddingLeft)) * sx;
    const top = fr.top + (frameEl.clientTop + parseFloat(st.paddingTop)) * sy;
    return { x: left + r.x * sx, y: top + r.y * sy, width: r.width * sx, height: r.height * sy };
  }

  // Makes sure the centre of rect (in win's viewport) is visible, scrolling
  // frameEl (the element the rect belongs to) into view if needed; returns the
  // (possibly new) rect via recompute().
  function ensureVisible(win, rect, scrollTarget, recompute) {
    const cx = rect.x + rect.width / 2;
    const cy = rect.y + rect.height / 2;
    if (cx >= 0 && cy >= 0 && cx <= win.innerWidth && cy <= win.innerHeight) return rect;
    scrollTarget?.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    let r = recompute();
    const cx2 = r.x + r.width / 2;
    const cy2 = r.y + r.height / 2;
    if (cx2 < 0 || cy2 < 0 || cx2 > win.innerWidth || cy2 > win.innerHeight) {
      win.scrollBy({ left: cx2 - win.innerWidth / 2, top: cy2 - win.innerHeight / 2, behavior: 'instant' });
      r = recompute();
    }
    return r;
  }

  function labelsOf(el) {
    return el.labels ? [...el.labels] : [];
  }

  function prepare() {
    const res = resolve();
    if (res.error) return res;
    const el = res.el;
    const desc = describe(el);
    const before = firstBox(el);
    if (a.scroll !== false) {
      if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
      else el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    }
    let box = firstBox(el);
    if (box.width === 0 && box.height === 0) {
      return { error: `${desc} has no size on screen (hidden?) — take a new snapshot`, desc };
    }
    // Hit test in the element's own frame.
    const local = { x: box.x, y: box.y, width: box.width, height: box.height };
    let note = res.note || '';
    if (a.hitTest !== false) {
      const cx = local.x + local.width / 2;
      const cy = local.y + local.height / 2;
      const root = el.getRootNode();
      const hitRoot = typeof root.elementFromPoint === 'function' ? root : el.ownerDocument;
      let hit = hitRoot.elementFromPoint(cx, cy);
      // Descend into shadow roots at that point.
      for (let i = 0; hit && i < 20; i++) {
        const sr = shadowOf(hit);
        const inner = sr?.elementFromPoint?.(cx, cy);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      const related = (h) => h && (h === el || el.contains(h) || labelsOf(el).some((l) => l === h || l.contains(h)) ||
        (h.getRootNode() !== document && el.contains(h.getRootNode().host)));
      let h = hit;
      let ok = false;
      for (let i = 0; h && i < 30; i++) {
        if (related(h)) { ok = true; break; }
        if (shadowOf(el)?.contains(h)) { ok = true; break; }
        h = h.parentElement || h.getRootNode()?.host || null;
        if (h && h.contains(el) && h !== el) break;
      }
      if (!ok && hit) {
        note = `${note ? `${note}; ` : ''}but ${describe(hit)} covers it there and gets the pointer`;
        res.covered = true;
      }
    }
    // Up through same-origin frames (inline in this document's registry).
    let rect = local;
    let win = winOf(el);
    while (win !== window) {
      const fe = win.frameElement;
      if (!fe) break;
      const inner = rect;
      rect = intoParent(fe, inner);
      const w = winOf(fe);
      rect = ensureVisible(w, rect, fe, () => intoParent(fe, inner));
      win = w;
    }
    rect = ensureVisible(window, rect, null, () => rect);
    const role = roleOf(el);
    const after = firstBox(el);
    const scrolled = before.x !== after.x || before.y !== after.y;
    return { desc, rect, x: rect.x + rect.width / 2, y: rect.y + rect.height / 2, state: stateOf(el, role), note, scrolled, covered: !!res.covered };
  }

  async function frameRect() {
    const r = ensureReg();
    const deadline = Date.now() + 1000;
    while (!r.seen.has(a.token) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    const src = r.seen.get(a.token);
    const fe = src && allFrameEls().find((f) => f.contentWindow === src);
    if (!fe) return { error: 'could not find that frame in its parent page — take a new snapshot', stale: true };
    // Same-origin frames between this document and fe: map through them too.
    const mapUp = () => {
      let rect = intoParent(fe, a.rect);
      let w = winOf(fe);
      while (w !== window && w.frameElement) {
        rect = intoParent(w.frameElement, rect);
        w = winOf(w.frameElement);
      }
      return rect;
    };
    const start = mapUp();
    let rect = ensureVisible(window, start, fe, mapUp);
    let scrolled = rect.x !== start.x || rect.y !== start.y;
    // And on up through this frame's same-origin ancestors, as far as they go.
    let up = 0;
    let w = window;
    for (;;) {
      let owner = null;
      try {
        owner = w.parent !== w ? w.frameElement : null;
      } catch { /* cross-origin parent */ }
      if (!owner) break;
      const inner = rect;
      const pw = winOf(owner);
      const at = intoParent(owner, inner);
      rect = ensureVisible(pw, at, owner, () => intoParent(owner, inner));
      scrolled ||= rect.x !== at.x || rect.y !== at.y;
      w = pw;
      up++;
    }
    return { rect, up, scrolled };
  }

  function focusOp() {
    const res = resolve();
    if (res.error) return res;
    const el = res.el;
    const desc = describe(el);
    if (!isTexty(el)) {
      const tag = el.localName;
      const hint = tag === 'select' ? 'use select_option' : tag === 'input' && ['checkbox', 'radio'].includes(inputType(el))
        ? 'use click or fill_form' : 'type into a textbox, or click it first and use press_key';
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
    return { desc, focused: focused && el.ownerDocument.hasFocus(), note: res.note, empty: !(el.value ?? el.textContent), secret: isSecret(el) };
  }

  function fieldInfo() {
    const res = resolve();
    if (res.error) return res;
    const el = res.el;
    const role = roleOf(el);
    const s = stateOf(el, role);
    let kind = 'other';
    if (el.localName === 'select') kind = 'select';
    else if (role === 'checkbox' || role === 'switch' || role === 'menuitemcheckbox') kind = 'checkbox';
    else if (role === 'radio' || role === 'menuitemradio') kind = 'radio';
    else if (isTexty(el)) kind = 'text';
    return { desc: describe(el), kind, checked: s.checked, state: s, disabled: !!s.disabled };
  }

  function selectOp() {
    const res = resolve();
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
    return { desc, selected: chosen.map(label), state: stateOf(el, roleOf(el)) };
  }

  function stateOp() {
    const res = resolve();
    if (res.error) return res;
    return { desc: describe(res.el), state: stateOf(res.el, roleOf(res.el)) };
  }

  // {dx?, dy?}: which scroller a wheel there moves and where it is now (the
  // service worker sends the trusted wheel and reads it again: read);
  // {to: {x?, y?}}: scrolls the page, or the element's scroller, to that
  // position; a target alone is scrolled into view.
  function scrollOp() {
    const dx = a.dx || 0;
    const dy = a.dy || 0;
    const to = a.to;
    const pos = (sc, w) => {
      const top = Math.round(sc.scrollTop);
      const max = Math.max(0, Math.round(sc.scrollHeight - (w ? w.innerHeight : sc.clientHeight)));
      const edge = top <= 0 ? ' (top)' : top >= max - 1 ? ' (bottom)' : '';
      return `y=${top} of ${max}${edge}${sc.scrollLeft ? `, x=${Math.round(sc.scrollLeft)}` : ''}`;
    };
    const answer = (sc, w, what) => ({ what, at: pos(sc, w), x: Math.round(sc.scrollLeft), y: Math.round(sc.scrollTop),
      viewport: { width: window.innerWidth, height: window.innerHeight } });
    const page = (doc) => answer(doc.scrollingElement || doc.documentElement, doc.defaultView, 'the page');
    const moveTo = (sc, w) => {
      const where = { left: to.x ?? sc.scrollLeft, top: to.y ?? sc.scrollTop, behavior: 'instant' };
      if (w) w.scrollTo(where);
      else sc.scrollTo(where);
    };
    const scrollable = (n) => {
      const st = styleOf(n);
      const y = (to ? to.y !== undefined : dy) && /(auto|scroll|overlay)/.test(st.overflowY) && n.scrollHeight > n.clientHeight;
      const x = (to ? to.x !== undefined : dx) && /(auto|scroll|overlay)/.test(st.overflowX) && n.scrollWidth > n.clientWidth;
      return y || x;
    };
    if (!a.ref && !a.selector) {
      if (to) moveTo(document.scrollingElement || document.documentElement, window);
      // Where a wheel moves the page: a point over no inner scroller or frame.
      const w = window.innerWidth;
      const h = window.innerHeight;
      const free = ([x, y]) => {
        for (let n = document.elementFromPoint(x, y); n && n.nodeType === 1; n = n.parentElement || n.getRootNode()?.host || null) {
          if (n === document.documentElement || n === document.body) return true;
          if (n.localName === 'iframe' || n.localName === 'frame' || scrollable(n)) return false;
        }
        return true;
      };
      const spots = [[0.5, 0.5], [0.5, 0.2], [0.5, 0.8], [0.15, 0.5], [0.85, 0.5], [0.15, 0.15], [0.85, 0.85], [0.85, 0.15], [0.15, 0.85]]
        .map(([fx, fy]) => [Math.round(w * fx), Math.round(h * fy)]);
      const [px, py] = spots.find(free) ?? spots[0];
      return { ...page(document), point: { x: px, y: py } };
    }
    const res = resolve();
    if (res.error) return res;
    const el = res.el;
    const desc = describe(el);
    if (!dx && !dy && !to) {
      el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      return { text: `scrolled ${desc} into view` };
    }
    // The centre of the element's visible part (clipped by its ancestors and
    // the viewport), relative to its box: where a wheel over it lands on it.
    const box = el.getBoundingClientRect();
    const vis = { l: Math.max(box.left, 0), t: Math.max(box.top, 0), r: Math.min(box.right, winOf(el).innerWidth), b: Math.min(box.bottom, winOf(el).innerHeight) };
    for (let p = el.parentElement; p; p = p.parentElement) {
      const st = styleOf(p);
      if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
      const pr = p.getBoundingClientRect();
      Object.assign(vis, { l: Math.max(vis.l, pr.left), t: Math.max(vis.t, pr.top), r: Math.min(vis.r, pr.right), b: Math.min(vis.b, pr.bottom) });
    }
    const visible = vis.r > vis.l && vis.b > vis.t ? { x: (vis.l + vis.r) / 2 - box.left, y: (vis.t + vis.b) / 2 - box.top } : null;
    let n = el;
    while (n && n.nodeType === 1 && !scrollable(n)) n = n.parentElement || n.getRootNode()?.host || null;
    const doc = el.ownerDocument;
    if (!n || n === doc.documentElement || n === doc.body) {
      const sc = doc.scrollingElement || doc.documentElement;
      if (to) moveTo(sc, doc.defaultView);
      return { ...page(doc), what: `the page (${desc} has no scrollable container)`, visible };
    }
    if (to) moveTo(n, null);
    return { ...answer(n, null, n === el ? desc : `${describe(n)} (around ${desc})`), visible };
  }

  // fill_form {submit}: the form the field belongs to and its default
  // button — what Enter in the field would press — as a ref to click; a form
  // without one is submitted with requestSubmit() (validation and submit
  // handlers run as for a user). Arms a watch on the form's submit event.
  function submitOp() {
    const res = resolve();
    if (res.error) return res;
    const el = res.el;
    const form = el.form || el.closest('form');
    if (!form) {
      if (a.armOnly) return { noForm: true };
      return { error: `${describe(el)} is in no form — pass submitRef (the element to click) instead of submit` };
    }
    const r = ensureReg();
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
      return { button: refOf(button), desc: describe(button), next: r.next };
    }
    form.requestSubmit();
    return { requested: true, desc: describe(form) };
  }

  function submitStateOp() {
    const w = reg?.submitWatch;
    return w ? { ...w } : { none: true };
  }

  function infoOp() {
    const res = resolve();
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
    const ref = reg?.byEl.get(el);
    return { text: `focus now on ${describe(el)}${ref !== undefined ? ` [ref=e${ref}]` : ''}` };
  }

  // Did a mouse move reach the target? (Input to out-of-process frames is
  // routed by compositor hit-test data, which lags a scroll.)
  function hoverCheck() {
    const res = resolve();
    if (res.error) return res;
    const el = res.el;
    const w = winOf(el);
    const r = ensureReg();
    if (a.arm) {
      r.moveHit = null;
      if (!r.moveWins) r.moveWins = new WeakSet();
      if (!r.moveWins.has(w)) {
        r.moveWins.add(w);
        w.addEventListener('mousemove', (e) => { r.moveHit = { path: e.composedPath(), t: Date.now() }; }, true);
      }
      return { armed: true };
    }
    return new Promise((resolveP) => {
      const deadline = Date.now() + (a.waitMs ?? 60);
      const check = () => {
        if (r.moveHit) {
          // Inside a closed shadow root the path stops at its host.
          let n = el;
          while (n && !r.moveHit.path.includes(n)) n = n.getRootNode()?.host ?? null;
          return resolveP({ hit: !!n });
        }
        if (Date.now() >= deadline) return resolveP({ hit: false, none: true });
        setTimeout(check, 8);
      };
      check();
    });
  }

  // A script that reached a page only after the worker stopped waiting (the
  // page was hung) must not act: the model was already told it failed.
  if (a.notAfter && Date.now() > a.notAfter) return { error: 'the page answered too late', expired: true };
  try {
    switch (op) {
      case 'hoverCheck': return hoverCheck();
      case 'active': return activeOp();
      case 'listen': listen(window); return { ok: true };
      // Two animation frames (capped): lets a scroll reach the compositor, whose
      // hit-test data routes input to out-of-process frames.
      case 'settle': return new Promise((res) => {
        const done = () => res({ ok: true });
        setTimeout(done, a.maxMs ?? 300);
        let n = a.frames ?? 2;
        const tick = () => (--n > 0 ? requestAnimationFrame(tick) : setTimeout(done, a.extraMs ?? 0));
        requestAnimationFrame(tick);
      });
      case 'announce': return announce();
      case 'resolveFrames': return resolveFrames().catch((e) => ({ error: `page script failed: ${e?.message ?? e}` }));
      case 'snapshot': return snapshot();
      case 'prepare': return prepare();
      case 'frameRect': return frameRect().catch((e) => ({ error: `page script failed: ${e?.message ?? e}` }));
      case 'focus': return focusOp();
      case 'fieldInfo': return fieldInfo();
      case 'select': return selectOp();
      case 'state': return stateOp();
      case 'scroll': return scrollOp();
      case 'info': return infoOp();
      case 'submit': return submitOp();
      case 'submitState': return submitStateOp();
      default: return { error: `unknown agent op ${op}` };
    }
  } catch (e) {
    return { error: `page script failed: ${e?.message ?? e}` };
  }
}
