// A page's prominent buttons as tools (ISOLATED world, top frame,
// document_start; loaded after forms_kit.js, before own_tools_relay.js,
// which adds these tools to the form and result-list tools it reports):
// source "buttons", one tool a button, press_{its label} {} — seed 000's
// star_repo/fork_repo/watch_repo; docs/page_tools.md "Buttons".
//
// Why the isolated world (as forms_isolated.js): a call is a trusted click
// aimed where this world says — at the button's element itself, kept here
// (picks.js). The page's scripts cannot reach it, and
// the page names nothing but its button's visible label (cleaned and cut
// here, cleaned again and marked untrusted by the host, which names the tool).
//
// Decisions (what is prominent):
// * A button is <button>, <input type=button> or role=button, visible,
//   enabled (not disabled, not aria-disabled, not inert), in the top
//   document's light DOM, with a label holding a letter or digit: its
//   aria-label, aria-labelledby, text, title or value — counts taken out
//   ("Star 1.2k" is "Star": the tool does not change with the count).
// * Not inside a form (a form tool presses that), nor in navigation, menus,
//   tab lists, list boxes, trees, grids or the page's banner, footer and
//   asides; not a view control: a button with aria-expanded or
//   aria-haspopup shows or hides part of the page (a disclosure, a menu)
//   and changes nothing on the site.
// * None on a page that offers WebMCP tools: the page said what an agent
//   may do there (own_tools_relay.js leaves these out then).
// * Not one of many of a kind: a label (counts aside) that 3 or more buttons
//   share is none (30 "Delete"s), nor a button inside an item (li, tr,
//   article, role row/listitem) that has 2 or more siblings of its shape —
//   the same tag holding the same sequence of child tags (rows of a table,
//   an inbox's messages: a result list's tool opens those).
// * A label longer than LABEL_MAX_CHARS is no button's name but a sentence:
//   none either.
// * At most MAX_BUTTON_TOOLS a page, in document order, among the page's
//   first MAX_SCANNED buttons.
//
// Naming (the host adds the fixed mark "press_" and makes it unique):
// the label's first NAME_WORDS words, lowercase, "_"-joined: "Star" →
// press_star, "Watch 12" → press_watch. The description is ours with the
// label quoted: the page cannot write more than its label.
//
// A call re-finds the button listed under that name (the same element) as
// it is at that moment: still in the page, still enabled and visible, and
// still saying what it said when it was listed (a "Star" that now reads
// "Unstar" is not pressed under press_star).
(() => {
  'use strict';
  try {
    if (window.top !== window) return;
    if (globalThis.__tabbridgeButtons) return;
    const kit = globalThis.__tabbridgeFormKit;
    if (!kit) return;

    // generated: constants MAX_BUTTON_TOOLS
    const MAX_BUTTON_TOOLS = 6;
    // end generated (codegen/generate.mjs, from common/protocol.h)
    const LABEL_MAX_CHARS = 40;
    const NAME_WORDS = 4;
    const SAME_LABEL = 3; // buttons sharing one label: a row's, none prominent
    const SAME_SHAPE = 3; // items of one shape in a list holding the button: a row
    // A page of 10,000 rows has 10,000 buttons: the first ones decide (the
    // scan runs on the page's main thread).
    const MAX_SCANNED = 2000;
    const SCAN_THROTTLE_MS = 200;
    const SCAN_COST_FACTOR = 10;

    const {
      qs, docQsa, getAttr, matches, closest, textContent, watchScan, collapse, cut, visible,
      childrenOf, parentOf, isConnected, getElementById,
    } = kit;

    const BUTTONS = 'button, input[type="button"], [role="button"]';
    // Where a button is not prominent: a form (its form tool), the site's
    // navigation, menus and the like, and what holds the page's asides.
    const OUTSIDE = 'form, nav, footer, aside, [role="navigation"], [role="menu"], [role="menubar"], ' +
      '[role="tablist"], [role="listbox"], [role="tree"], [role="grid"], [role="treegrid"], [role="banner"], ' +
      '[role="contentinfo"], [role="complementary"], [role="search"], [inert], [aria-hidden="true"]';
    const ITEMS = 'li, tr, article, [role="row"], [role="listitem"]';
    const SECTIONS = 'main, article, section, [role="main"]';

    // Counts a label carries: "12", "1.2k", "(3)", "1,024".
    const COUNT = /(^|\s)\(?[+-]?\d[\d.,]*\s?[kKmM]?\)?(?=\s|$)/g;
    // Text with a space where elements meet ("Star<span>12</span>" is "Star 12").
    const spaced = (n, depth = 0) => {
      if (n.nodeType === 3) return n.data;
      if (n.nodeType !== 1 || depth > 8 || n.localName === 'script' || n.localName === 'style') return '';
      let out = '';
      for (let c = n.firstChild; c && out.length < 400; c = c.nextSibling) out += c.nodeType === 1 ? ` ${spaced(c, depth + 1)} ` : spaced(c, depth + 1);
      return out;
    };
    const labelOf = (el) => {
      let t = collapse(getAttr(el, 'aria-label'));
      const by = getAttr(el, 'aria-labelledby');
      if (!t && by) {
        t = collapse(by.split(/\s+/).map((id) => {
          const n = getElementById(document, id);
          return n ? textContent(n) : '';
        }).join(' '));
      }
      if (!t) t = el.localName === 'input' ? collapse(el.value) : collapse(spaced(el));
      if (!t) t = collapse(getAttr(el, 'title'));
      return collapse(t.replace(COUNT, ' '));
    };
    // A button that shows or hides part of the page (a disclosure, a menu, a
    // popup) changes nothing on the site: a view control, not an action.
    const opensView = (el) => getAttr(el, 'aria-expanded') !== null || getAttr(el, 'aria-haspopup') !== null;
    const disabled = (el) => (el.localName === 'button' || el.localName === 'input' ? matches(el, ':disabled') : false) ||
      getAttr(el, 'aria-disabled') === 'true';

    // The page's banner: a <header> not inside its main content or a section.
    const inBanner = (el) => {
      const h = closest(el, 'header');
      return !!h && !closest(h, SECTIONS);
    };
    // An item's shape: its tag and its children's tags, in order.
    const shapeOf = (item) => {
      let s = item.localName;
      for (const c of childrenOf(item)) s += ` ${c.localName}`;
      return s;
    };
    // One scan's verdicts on lists: list element -> Map(shape -> count).
    let shapes = new Map();
    const inManyItems = (el) => {
      const item = closest(el, ITEMS);
      const list = item && parentOf(item);
      if (!list) return false;
      let counts = shapes.get(list);
      if (!counts) {
        counts = new Map();
        for (const c of childrenOf(list)) {
          const k = shapeOf(c);
          counts.set(k, (counts.get(k) ?? 0) + 1);
        }
        shapes.set(list, counts);
      }
      return (counts.get(shapeOf(item)) ?? 0) >= SAME_SHAPE;
    };

    const nameOf = (label) => {
      const words = label.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, NAME_WORDS);
      return `press_${words.join('_')}`;
    };

    // name -> {el, label} of the last list reported.
    let current = new Map();

    function scan() {
      shapes = new Map();
      const found = [];
      const byLabel = new Map();
      const all = docQsa(document, BUTTONS);
      for (let i = 0; i < all.length && i < MAX_SCANNED; i++) {
        const el = all[i];
        if (closest(el, OUTSIDE) || inBanner(el) || disabled(el) || opensView(el) || !visible(el)) continue;
        // A button inside another (role=button around a <button>) is that one.
        const outer = parentOf(el) && closest(parentOf(el), BUTTONS);
        if (outer) continue;
        const label = labelOf(el);
        if (!label || label.length > LABEL_MAX_CHARS || !/[\p{L}\p{N}]/u.test(label)) continue;
        const key = label.toLowerCase();
        byLabel.set(key, (byLabel.get(key) ?? 0) + 1);
        found.push({ el, label, key });
      }
      const tools = [];
      const targets = new Map();
      const used = new Set();
      for (const b of found) {
        if (tools.length >= MAX_BUTTON_TOOLS) break;
        if (byLabel.get(b.key) >= SAME_LABEL || inManyItems(b.el)) continue;
        let name = nameOf(b.label);
        for (let k = 2; used.has(name); k++) name = `${nameOf(b.label)}_${k}`;
        used.add(name);
        const shown = cut(b.label, LABEL_MAX_CHARS);
        tools.push({
          name,
          source: 'buttons',
          description: `Press the button "${shown}" (a trusted click); answers what changed`,
          inputSchema: { type: 'object', properties: {} },
          readOnly: false,
        });
        targets.set(name, { el: b.el, label: b.label });
      }
      return { tools, targets };
    }

    // The button listed as `name`, now: {picked: the token the page agent
    // aims by (picks.js), label, text} or {error}.
    function target(name) {
      const t = current.get(name);
      if (!t) return { error: 'gone' };
      if (!isConnected(t.el)) return { error: `the button "${cut(t.label, LABEL_MAX_CHARS)}" is no longer in the page` };
      const now = labelOf(t.el);
      if (now !== t.label) {
        return { error: `the button listed as "${cut(t.label, LABEL_MAX_CHARS)}" now says "${cut(now, LABEL_MAX_CHARS)}" — nothing was pressed; the tool list follows shortly` };
      }
      if (disabled(t.el)) return { error: `the button "${cut(t.label, LABEL_MAX_CHARS)}" is disabled now` };
      pressed = t.el;
      return { picked: globalThis.__tabbridgePicks.pick(t.el), label: t.label, text: textOf(t.el) };
    }

    // Right before the press: the button listed as `name` is still the one
    // picked (the page may have swapped it for another since), with its
    // label, enabled.
    function confirm(name, token) {
      const t = current.get(name);
      if (!t || !isConnected(t.el) || labelOf(t.el) !== t.label || disabled(t.el)) return false;
      return globalThis.__tabbridgePicks?.picked(token) === t.el;
    }

    // What the button pressed last says now, counts included ("Unstar 13"):
    // null when it left the page.
    let pressed = null;
    const textOf = (el) => cut(collapse(getAttr(el, 'aria-label')) ||
      (el.localName === 'input' ? collapse(el.value) : collapse(spaced(el))) || collapse(getAttr(el, 'title')), 80);
    function after() {
      const el = pressed;
      pressed = null;
      return el && isConnected(el) ? { text: textOf(el) } : { gone: true };
    }

    // ---- watching (forms_kit.js watchScan) -------------------------------------

    const buttonish = (node) => {
      if (node.nodeType !== 1) return false;
      try {
        return matches(node, BUTTONS) || !!closest(node, BUTTONS) || !!qs(node, BUTTONS);
      } catch {
        return false;
      }
    };
    // The buttons change when buttons come or go, when one's text, label or
    // state changes, or when what holds them is shown or hidden.
    const touches = (r) => {
      try {
        if (r.type === 'childList') {
          if (buttonish(r.target)) return true;
          for (const n of r.addedNodes) if (buttonish(n)) return true;
          for (const n of r.removedNodes) if (buttonish(n)) return true;
        } else if (r.type === 'characterData') {
          const p = r.target.parentElement;
          return !!p && buttonish(p);
        } else if (r.type === 'attributes' && r.target.nodeType === 1) {
          return true;
        }
      } catch { /* detached or odd node */ }
      return false;
    };

    const watcher = watchScan({
      scan,
      keep: ({ targets }) => {
        current = targets;
      },
      touches,
      characterData: true,
      attributes: ['style', 'class', 'hidden', 'aria-hidden', 'inert', 'open', 'disabled', 'aria-disabled',
        'role', 'aria-label', 'aria-labelledby', 'aria-expanded', 'aria-haspopup', 'title', 'value'],
      throttleMs: SCAN_THROTTLE_MS,
      costFactor: SCAN_COST_FACTOR,
    });
    globalThis.__tabbridgeButtons = watcher.api({
      target: (name) => {
        try {
          return target(name);
        } catch (e) {
          return { error: `could not read the button: ${String(e?.message ?? e)}` };
        }
      },
      confirm: (name, token) => {
        try {
          return confirm(name, token);
        } catch {
          return false;
        }
      },
      after: () => {
        try {
          return after();
        } catch {
          return null;
        }
      },
    });
    watcher.start();
  } catch { /* never throw into the page */ }
})();
