// The page agent's snapshot: the document as indented lines of roles, names,
// states and text, each interactive element with its ref; same-origin frames
// walked inline, cross-origin ones left as placeholders ({frameRef, depth,
// head, inView}) that the service worker fills from that frame's own snapshot.
// `view` lists the items that are on screen (in the top viewport, as far as
// this frame knows): on a page too long for one answer, the service worker
// shows those first (tools/shared/snapshot_overview.js).
//
// With `overview: N`, a document of more than N elements is walked only where
// the overview needs it: what is on screen and the outline (landmarks,
// headings, frames and what holds them). A subtree whose box lies wholly off
// screen is left out as one "…" line ({pruned: true} says so), so the first
// page of 10,000 rows costs what the screen holds, not the rows. The cost: a
// fixed-position element inside such a box is left out too (the whole walk,
// the cursor's, has it).
(function (agent) {
  'use strict';

  const { collapse, cut, quote, NAME_MAX } = agent.text;
  const { SKIP, inputType, shadowOf, styleOf } = agent.dom;
  const { ensure, foldedItems, prune, refOf, resolve } = agent.registry;
  const { CONTAINERS, INTERACTIVE_ROLES, NEED_NAME, roleOf } = agent.roles;
  const { hrefOf, nameOf } = agent.names;
  const { formatState, stateOf } = agent.states;
  const { listen } = agent.frames;
  const { findRuns, FOLD_MIN } = agent.fold;
  const NEVER_CLICKABLE = new Set(['html', 'body', 'label']);
  const OUTLINE = 'h1, h2, h3, h4, h5, h6, header, nav, footer, aside, form, section, search, dialog, iframe, frame, ' +
    '[role=heading], [role=banner], [role=navigation], [role=contentinfo], [role=complementary], [role=search], ' +
    '[role=form], [role=region], [role=dialog], [role=alertdialog]';

  const CONTROLS = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], ' +
    '[role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=option], [role=textbox]';
  const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role=heading]';
  const SMALL_LANDMARK_ELEMENTS = 40; // a landmark this small is walked whole (a site's navigation, a search form)
  const ELIDED = '…'; // a subtree the overview left out

  // What the overview walks whatever its place: the outline's elements, what
  // holds them, and all of a small landmark (null: walk everything).
  function overviewKeeps(a) {
    if (!a.overview || document.getElementsByTagName('*').length <= a.overview) return null;
    const keep = new Set();
    for (const o of document.querySelectorAll(OUTLINE)) {
      for (let e = o; e && !keep.has(e); e = e.parentElement) keep.add(e);
      if (o.matches(HEADINGS)) continue;
      const inside = o.getElementsByTagName('*');
      if (inside.length <= SMALL_LANDMARK_ELEMENTS) for (const e of inside) keep.add(e);
    }
    return keep;
  }

  // {startAt, textMax?, overview?, ref?, localRef?} -> {items, next, view, viewport, pruned?}
  // ref: that element's lines in full (nothing folded); an element of a
  // folded item: that whole item.
  function snapshot(a) {
    const TEXT_MAX = a.textMax || agent.text.TEXT_MAX;
    const reg = ensure(a.startAt);
    listen(window, a.startAt);
    prune(reg);
    let region = null;
    if (a.ref) {
      const r = resolve(a);
      if (r.error) return r;
      region = regionOf(r.el);
    }
    const folding = !region;
    const items = [];
    const view = []; // indexes of the items on screen
    const keep = overviewKeeps(a);
    let pruned = false;
    let text = '';
    let textDepth = 0;
    let textNode = null; // the first text node of the pending text line, and its ctx
    let textCtx = null;
    const pad = (d) => '  '.repeat(d);
    // A box on screen: in its window's viewport, in a frame that is on screen.
    const onScreen = (r, ctx) => ctx.viewOk && r.bottom > 0 && r.right > 0 && r.top < ctx.vh && r.left < ctx.vw;
    const textOnScreen = () => {
      if (!textNode || !textCtx.viewOk) return false;
      const range = textNode.ownerDocument.createRange();
      range.selectNodeContents(textNode);
      return onScreen(range.getBoundingClientRect(), textCtx);
    };
    const flush = () => {
      const t = collapse(text).replace(/^(\|\s*)+|(\s*\|)+$/g, '');
      text = '';
      if (t) {
        if (textOnScreen()) view.push(items.length);
        items.push(`${pad(textDepth)}- text: ${cut(t, TEXT_MAX)}`);
      }
      textNode = null;
    };
    // A control named by aria-label whose only content is other text (a
    // "Logout" button labelled "Remove authorization"): that text goes on its
    // line, `shows "Logout"`, not on a text line of its own that reads as
    // something else on the page.
    const showsOnLine = (at, depth, name) => {
      const prefix = `${pad(depth)}- text: `;
      const next = items[at + 1];
      if (items.length !== at + 2 || typeof next !== 'string' || !next.startsWith(prefix)) return;
      const shown = next.slice(prefix.length);
      items.pop();
      if (view.at(-1) === at + 1) view.pop();
      if (shown !== name) items[at] += ` shows ${quote(cut(shown, NAME_MAX))}`;
    };
    const addText = (s, depth, node, ctx) => {
      if (!collapse(text)) {
        textDepth = depth;
        textNode = null;
      }
      if (node && !textNode && /\S/.test(s)) {
        textNode = node;
        textCtx = ctx;
      }
      text += s;
    };

    // Siblings by nextSibling: walking a NodeList with for…of costs several
    // times more on a page of 50,000 elements.
    const visitKids = (el, depth, ctx) => {
      const sr = shadowOf(el);
      if (!sr && el.localName === 'slot') {
        const assigned = el.assignedNodes();
        if (assigned.length) {
          for (const k of assigned) visit(k, depth, ctx);
          return;
        }
      }
      const host = sr || el;
      if (!folding || host.childElementCount < FOLD_MIN) {
        for (let k = host.firstChild; k; k = k.nextSibling) visit(k, depth, ctx);
        return;
      }
      visitRuns(el, host, depth, ctx);
    };

    // The children of an element of many: each child's lines kept apart, then
    // runs of one shape folded (fold.js). A child whose lines share a text
    // line with its neighbours (inline text) breaks a run.
    const visitRuns = (el, host, depth, ctx) => {
      const segs = [];
      for (let k = host.firstChild; k; k = k.nextSibling) {
        const start = items.length;
        const clean = !/\S/.test(text);
        visit(k, depth, ctx);
        if (k.nodeType !== 1) {
          if (k.nodeType === 3 && /\S/.test(k.data) && !ctx.quiet && !ctx.hidden) segs.push({ lines: null });
          continue;
        }
        const ok = clean && !/\S/.test(text);
        segs.push({ lines: ok ? items.slice(start) : null, start, end: items.length, el: k });
      }
      const runs = findRuns(segs, pad(depth), () => refOf(el, a.startAt));
      if (!runs.length) return;
      const folded = foldedItems(a.startAt);
      for (let r = runs.length - 1; r >= 0; r--) {
        const { from, to, lines, members } = runs[r];
        const S = segs[from].start;
        const E = segs[to].end;
        const heads = lines.length - members.length; // header and template
        const itemLine = (i) => (lines.length > heads || !members.length ? S + heads + i : S);
        for (const m of members) folded.add(segs[m].el);
        items.splice(S, E - S, ...lines);
        const shift = lines.length - (E - S);
        let seg = 0;
        const remapped = [];
        for (const v of view) {
          if (v < S) remapped.push(v);
          else if (v >= E) remapped.push(v + shift);
          else {
            while (seg < members.length - 1 && segs[members[seg]].end <= v) seg++;
            const at = itemLine(seg);
            if (remapped[remapped.length - 1] !== at) remapped.push(at);
          }
        }
        view.length = 0;
        view.push(...remapped);
      }
    };

    function visit(node, depth, ctx) {
      if (node.nodeType === 3) {
        if (!ctx.quiet && !ctx.hidden) addText(node.data, depth, node, ctx);
        return;
      }
      if (node.nodeType !== 1) return;
      const el = node;
      const tag = el.localName;
      if (SKIP.has(tag) || el.getAttribute('aria-hidden') === 'true' || el.inert) return;
      if (tag === 'input' && inputType(el) === 'hidden') return;
      if (keep && !keep.has(el)) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && !onScreen(r, ctx)) {
          pruned = true;
          if (ctx.hidden) return;
          flush();
          const line = `${pad(depth)}${ELIDED}`;
          if (items[items.length - 1] !== line) items.push(line);
          return;
        }
      }
      // Each read of a computed style builds its string: read each once.
      const st = styleOf(el);
      const display = st.display;
      if (display === 'none' || st.contentVisibility === 'hidden') return;
      const hidden = st.visibility !== 'visible';
      const inline = display.startsWith('inline') || display === 'contents';
      const cell = display === 'table-cell';
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
        const inView = onScreen(r, ctx);
        let doc = null;
        try {
          doc = el.contentDocument;
        } catch { /* cross-origin */ }
        if (doc && doc.documentElement) {
          listen(doc.defaultView, a.startAt);
          const mark = items.length;
          items.push(head);
          const win = doc.defaultView;
          visit(doc.documentElement, depth + 1, { ...ctx, quiet: false, inClickable: false, parentPointer: false,
            viewOk: inView, vw: win.innerWidth, vh: win.innerHeight });
          flush();
          if (items.length === mark + 1) items.pop();
        } else {
          // Cross-origin: the service worker fills this in from that frame's own snapshot.
          items.push({ frameRef: refOf(el, a.startAt), depth: depth + 1, head, inView });
        }
        return;
      }

      let role = roleOf(el);
      const editableRoot = el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable) &&
        !(tag === 'input' || tag === 'textarea');
      if (editableRoot && !role) role = 'textbox';
      let interactive = INTERACTIVE_ROLES.has(role) || editableRoot;
      if (tag === 'a' && !el.hasAttribute('href') && !interactive) interactive = false;
      const cursor = st.cursor;
      const grab = cursor === 'grab' || cursor === 'move';
      if (!interactive && !NEVER_CLICKABLE.has(tag)) {
        const ti = el.getAttribute('tabindex');
        if ((ti !== null && +ti >= 0) || el.hasAttribute('onclick') ||
          (!ctx.inClickable && cursor === 'pointer' && !ctx.parentPointer)) {
          interactive = true;
          if (!role) role = 'clickable';
        } else if (el.getAttribute('draggable') === 'true' || (grab && !ctx.parentGrab)) {
          interactive = true; // something to drag (an HTML5 draggable, a card a library moves)
          if (!role) role = 'draggable';
        }
      }
      // Icons: a clickable svg is shown (named by aria-label or <title>); others are noise.
      if (tag === 'svg' && !interactive) return;
      const childCtx = { ...ctx, parentPointer: cursor === 'pointer', parentGrab: grab, hidden };

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
          // A clickable region that holds controls of its own (a row, a card):
          // its name would repeat theirs, each on its own line; its text stays text.
          if (fromContent && name && (role === 'clickable' || role === 'draggable') && el.querySelector(CONTROLS)) {
            name = '';
            keepText = true;
          }
          const s = stateOf(el, role);
          let line = `${pad(depth)}- ${role}${name ? ` ${quote(cut(name, NAME_MAX))}` : ''}${formatState(s)} [ref=${refOf(el, a.startAt)}]`;
          if (role === 'link' && tag !== 'area') {
            const h = hrefOf(el);
            if (h && h !== name) line += ` ${h}`;
          }
          if (onScreen(r, ctx)) view.push(items.length);
          const at = items.length;
          items.push(line);
          const leaf = tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'svg' || editableRoot;
          if (!leaf) {
            visitKids(el, depth, { ...childCtx, quiet: ctx.quiet || (fromContent && !keepText), inClickable: true });
            flush();
            if (!fromContent && name) showsOnLine(at, depth, name);
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
          if (onScreen(r, ctx)) view.push(items.length);
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
      if (cell && collapse(text)) addText(' | ', depth, null, ctx);
      visitKids(el, depth, { ...childCtx, quiet });
      if (!inline && !cell) flush();
      else if (cell) addText(' ', depth);
    }

    let root = region || document.body || document.documentElement;
    let modal = null;
    try {
      if (!region) modal = document.querySelector('dialog:modal');
    } catch { /* no :modal support */ }
    if (modal) {
      items.push('- (a modal dialog is open: the rest of the page is inert)');
      root = modal;
    }
    if (root) {
      visit(root, 0, { quiet: false, inClickable: false, parentPointer: false, hidden: false,
        viewOk: true, vw: innerWidth, vh: innerHeight });
    }
    flush();
    const se = document.scrollingElement || document.documentElement;
    const viewport = { y: Math.round(scrollY), h: innerHeight, height: se ? se.scrollHeight : 0 };
    return { items, next: reg.next, view, viewport, pruned };
  }

  // The element a ref's region is: the folded item it lies in, else itself.
  function regionOf(el) {
    const folded = foldedItems();
    for (let e = el; e; e = e.parentElement) if (folded.has(e)) return e;
    return el;
  }

  agent.snapshot = { snapshot, regionOf };
})(globalThis.__tabbridgeAgent ??= {});
