// The page agent's snapshot: the document as indented lines of roles, names,
// states and text, each interactive element with its ref; same-origin frames
// walked inline, cross-origin ones left as placeholders ({frameRef, depth,
// head}) that the service worker fills from that frame's own snapshot.
(function (agent) {
  'use strict';

  const { collapse, cut, quote, NAME_MAX } = agent.text;
  const { SKIP, inputType, shadowOf, styleOf } = agent.dom;
  const { ensure, prune, refOf } = agent.registry;
  const { CONTAINERS, INTERACTIVE_ROLES, NEED_NAME, roleOf } = agent.roles;
  const { hrefOf, nameOf } = agent.names;
  const { formatState, stateOf } = agent.states;
  const { listen } = agent.frames;

  // {startAt, textMax?} -> {items, next}
  function snapshot(a) {
    const TEXT_MAX = a.textMax || agent.text.TEXT_MAX;
    const reg = ensure(a.startAt);
    listen(window, a.startAt);
    prune(reg);
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
          listen(doc.defaultView, a.startAt);
          const mark = items.length;
          items.push(head);
          visit(doc.documentElement, depth + 1, { ...ctx, quiet: false, inClickable: false, parentPointer: false });
          flush();
          if (items.length === mark + 1) items.pop();
        } else {
          // Cross-origin: the service worker fills this in from that frame's own snapshot.
          items.push({ frameRef: refOf(el, a.startAt), depth: depth + 1, head });
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
        } else if (el.getAttribute('draggable') === 'true' || ((st.cursor === 'grab' || st.cursor === 'move') && !ctx.parentGrab)) {
          interactive = true; // something to drag (an HTML5 draggable, a card a library moves)
          if (!role) role = 'draggable';
        }
      }
      // Icons: a clickable svg is shown (named by aria-label or <title>); others are noise.
      if (tag === 'svg' && !interactive) return;
      const childCtx = { ...ctx, parentPointer: st.cursor === 'pointer', parentGrab: st.cursor === 'grab' || st.cursor === 'move', hidden };

      if (interactive && !hidden) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 || r.height > 0) {
          flush();
          let { name, fromContent } = nameOf(el, role);
          // A big clickable region (a card, a scroller with tabindex) keeps its text as text.
          let keepText = false;
          if (fromContent && (role === 'clickable' || role === 'draggable' || role === 'gridcell' || role === 'cell') && name.length > NAME_MAX) {
            name = '';
            keepText = true;
          }
          const s = stateOf(el, role);
          let line = `${pad(depth)}- ${role}${name ? ` ${quote(cut(name, NAME_MAX))}` : ''}${formatState(s)} [ref=${refOf(el, a.startAt)}]`;
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

  agent.snapshot = { snapshot };
})(globalThis.__tabbridgeAgent ??= {});
