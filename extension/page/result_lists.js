// Lists of results as tools: what counts as one, its items, and its tool's
// name and description (ISOLATED world, top frame, document_start; loaded
// before results_isolated.js, which watches the page and answers calls).
// Pure: every look at the DOM goes through `dom` (results_isolated.js passes
// the captured methods of forms_kit.js; tests/js/result_lists.test.mjs a stub),
// so the rules below run without a browser.
//
// What counts as a list of results (search results, inbox rows, a table of
// orders): at least MIN_ITEMS visible siblings of one kind — li, tr, article,
// or role listitem, row or article — each holding a primary control: the
// link or button that opens the item (the first one inside a heading, else
// the link, else the button with the longest text; never one whose text is
// an action on the item — Delete, Archive, Edit…). Not a list of results:
// menus, navigation and sidebars (inside nav, header, footer, menu, aside,
// or role navigation, menu, menubar, tablist, toolbar, banner, contentinfo,
// complementary), lists of bare short links (the items average under
// MIN_ITEM_TEXT characters: pagination, tags), lists inside an item of a
// list already taken (a result's sitelinks). The first SAMPLE_ITEMS
// siblings decide; the first MAX_SCANNED_ITEMS are indexed. Light DOM only.
//
// Naming (the tool is select_{one item}, snake_case, <= NAME_MAX chars): the
// list's (or its parent's) aria-label or aria-labelledby, or a table's
// caption, else the nearest heading before it, else a labelled region a few
// levels up; counts, quoted text and the search query are taken out of that
// label, and what follows "for", "from", "in"… ("12 results for “rust”" →
// "results", "Messages in Inbox" → "messages"), then its last word made
// singular ("Search results" → select_search_result, "Flights" →
// select_flight); a word that is not a plural gets "_item" ("Inbox" →
// select_inbox_item). No label, or only "results", on a page with a search
// query (a search field's value, or q= in the URL) → select_search_result;
// else select_result.
(() => {
  'use strict';
  try {
    if (globalThis.__tabbridgeResultLists) return;

    const MIN_ITEMS = 3;
    const MIN_ITEM_TEXT = 16; // average characters of an item's text
    const MAX_SCANNED_ITEMS = 1000;
    const SAMPLE_ITEMS = 20; // the first item-like children, which decide whether it is a list
    const MAX_CONTROLS_SEEN = 60; // elements walked inside one item
    const NAME_MAX = 40;
    const TITLE_MAX = 36;
    const TITLES_SHOWN = 3;
    const HEADING_SEARCH = 200;

    const ITEM_TAGS = new Set(['li', 'tr', 'article']);
    const ITEM_ROLES = new Set(['listitem', 'row', 'article']);
    const ITEM_SELECTOR = 'li, tr, article, [role="listitem"], [role="row"], [role="article"]';
    const NOT_RESULTS_TAGS = new Set(['nav', 'header', 'footer', 'menu', 'aside']);
    const NOT_RESULTS_ROLES = new Set(['navigation', 'menu', 'menubar', 'tablist', 'toolbar', 'banner', 'contentinfo', 'complementary']);
    const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
    const ACTION_WORDS = /^(delete|remove|archive|trash|close|cancel|dismiss|hide|edit|rename|share|copy|report|block|mute|flag|spam|unsubscribe|more|menu|options|settings|like|save|bookmark|reply|forward|download|print|[×✕✖x…]|\.\.\.)(\s|$)/i;

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
    const roleOf = (el, dom) => {
      const r = dom.attr(el, 'role');
      return r ? r.trim().toLowerCase() : '';
    };
    const isHeading = (el, dom) => HEADING_TAGS.has(dom.tag(el)) || roleOf(el, dom) === 'heading';
    const isItemish = (el, dom) => ITEM_TAGS.has(dom.tag(el)) || ITEM_ROLES.has(roleOf(el, dom));
    // Siblings of one kind: the same tag and role (a tr and a div[role=row] are two).
    const kindOf = (el, dom) => `${dom.tag(el)}|${roleOf(el, dom)}`;

    // ---- controls -----------------------------------------------------------------

    const controlKind = (el, dom) => {
      const tag = dom.tag(el);
      // An item that is itself a link (<a role="listitem">) is one by its tag.
      const role = ITEM_ROLES.has(roleOf(el, dom)) ? '' : roleOf(el, dom);
      if (role === 'link') return 'link';
      if (role === 'button') return 'button';
      if (role) return null; // a checkbox, a tab, a menu item…: not what opens the item
      if (tag === 'a') return dom.attr(el, 'href') !== null ? 'link' : null;
      if (tag === 'button') return 'button';
      if (tag === 'input') {
        const type = (dom.attr(el, 'type') ?? '').trim().toLowerCase();
        return type === 'button' || type === 'submit' ? 'button' : null;
      }
      return null;
    };
    const controlText = (el, dom) => {
      const own = collapse(dom.attr(el, 'aria-label'));
      if (own) return own;
      if (dom.tag(el) === 'input') return collapse(dom.attr(el, 'value'));
      return collapse(dom.text(el)) || collapse(dom.attr(el, 'title'));
    };

    // The control that opens the item: {el, kind, text} or null.
    function primaryOf(item, dom) {
      const usable = (el, kind) => {
        if (!kind || dom.disabled(el) || !dom.visible(el)) return null;
        const text = controlText(el, dom);
        if (!text || ACTION_WORDS.test(text)) return null;
        return { el, kind, text };
      };
      const self = controlKind(item, dom);
      if (self) return usable(item, self);
      const found = [];
      let seen = 0;
      // Depth-first in document order; a control's content is not searched.
      const walk = (el, inHeading, depth) => {
        for (let c = dom.first(el); c; c = dom.next(c)) {
          if (++seen > MAX_CONTROLS_SEEN || depth > 12) return;
          const kind = controlKind(c, dom);
          if (kind) {
            const u = usable(c, kind);
            if (u) found.push({ ...u, inHeading });
            continue;
          }
          walk(c, inHeading || isHeading(c, dom), depth + 1);
        }
      };
      walk(item, false, 0);
      if (!found.length) return null;
      const titled = found.find((f) => f.inHeading);
      if (titled) return { el: titled.el, kind: titled.kind, text: titled.text };
      const longest = (kind) => found.filter((f) => f.kind === kind)
        .reduce((best, f) => (!best || f.text.length > best.text.length ? f : best), null);
      const best = longest('link') ?? longest('button');
      return { el: best.el, kind: best.kind, text: best.text };
    }

    // ---- lists --------------------------------------------------------------------

    const insideNonResults = (el, dom) => {
      for (let n = el; n && n !== dom.body; n = dom.parent(n)) {
        if (NOT_RESULTS_TAGS.has(dom.tag(n)) || NOT_RESULTS_ROLES.has(roleOf(n, dom))) return true;
      }
      return false;
    };

    // The items of a list, live: {items: [{item, primary}] — container's
    // children of its most common item kind (or `kind`) that are visible and
    // have a primary control —, more: whether children past the first
    // `limit` were left out}.
    function itemsOf(container, dom, kind = null, limit = MAX_SCANNED_ITEMS) {
      const children = []; // [element, kind]
      let more = false;
      for (let c = dom.first(container); c; c = dom.next(c)) {
        if (!isItemish(c, dom)) continue;
        if (children.length >= limit) {
          more = true;
          break;
        }
        children.push([c, kindOf(c, dom)]);
      }
      let k = kind;
      if (!k) {
        const counts = new Map();
        for (const [, ck] of children) counts.set(ck, (counts.get(ck) ?? 0) + 1);
        k = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
      }
      const items = [];
      for (const [c, ck] of children) {
        if (ck !== k || !dom.visible(c)) continue;
        const primary = primaryOf(c, dom);
        if (primary) items.push({ item: c, primary });
      }
      return { items, more };
    }

    const richEnough = (items, dom) => {
      const total = items.reduce((n, { item }) => n + Math.min(200, collapse(dom.text(item)).length), 0);
      return total / items.length >= MIN_ITEM_TEXT;
    };

    // candidates: the page's item-like elements in document order (qsa of
    // ITEM_SELECTOR). Returns {lists: [{container, kind, items, more}] (at most
    // max, document order), containers: every parent of MIN_ITEMS or more
    // item-like children, taken or not (results_isolated.js re-scans when
    // one of them changes: a hidden list that shows)}.
    function findLists(candidates, dom, { max = 3 } = {}) {
      const groups = new Map(); // parent -> its item-like children
      // candidates match ITEM_SELECTOR already; itemsOf checks again.
      for (const el of candidates) {
        const p = dom.parent(el);
        if (!p) continue;
        if (!groups.has(p)) groups.set(p, []);
        groups.get(p).push(el);
      }
      const lists = [];
      const containers = [];
      const taken = new Set(); // items of the lists found
      for (const [container, children] of groups) {
        if (children.length < MIN_ITEMS) continue;
        containers.push(container);
        if (lists.length >= max) continue;
        let nested = false;
        for (let n = dom.parent(container); n && !nested; n = dom.parent(n)) nested = taken.has(n);
        if (nested || insideNonResults(container, dom)) continue;
        // A sample decides (a 10,000-row list of bare links is not read whole).
        const sample = itemsOf(container, dom, null, SAMPLE_ITEMS);
        if (sample.items.length < MIN_ITEMS || !richEnough(sample.items, dom)) continue;
        const { items, more } = sample.more ? itemsOf(container, dom) : sample;
        for (const { item } of items) taken.add(item);
        lists.push({ container, kind: kindOf(items[0].item, dom), items, more });
      }
      return { lists, containers };
    }

    // ---- names --------------------------------------------------------------------

    const textOfIds = (ids, dom) => collapse(String(ids).split(/\s+/).map((id) => {
      const n = id ? dom.byId(id) : null;
      return n ? dom.text(n) : '';
    }).join(' '));

    const ownLabel = (el, dom) => {
      const aria = collapse(dom.attr(el, 'aria-label'));
      if (aria) return aria;
      const by = dom.attr(el, 'aria-labelledby');
      if (by) {
        const t = textOfIds(by, dom);
        if (t) return t;
      }
      if (dom.tag(el) === 'table') {
        const caption = dom.children(el).find((c) => dom.tag(c) === 'caption');
        if (caption) return collapse(dom.text(caption));
      }
      return '';
    };

    // The last heading in el (el itself included), looking at most at
    // HEADING_SEARCH elements (a sibling may be a list of 10,000 rows).
    const lastHeadingIn = (el, dom) => {
      let budget = HEADING_SEARCH;
      const look = (n, depth) => {
        if (--budget < 0) return null;
        if (isHeading(n, dom)) return n;
        if (depth > 6) return null;
        const kids = dom.children(n);
        for (let i = kids.length - 1; i >= 0 && budget > 0; i--) {
          const h = look(kids[i], depth + 1);
          if (h) return h;
        }
        return null;
      };
      return look(el, 0);
    };

    const headingBefore = (container, dom) => {
      let n = container;
      for (let depth = 0; n && n !== dom.body && depth < 4; depth++, n = dom.parent(n)) {
        let k = 0;
        for (let s = dom.prev(n); s && k < 4; s = dom.prev(s), k++) {
          const h = lastHeadingIn(s, dom);
          const t = h ? collapse(dom.text(h)) : '';
          if (t) return t;
        }
      }
      return '';
    };

    // What the page calls the list: its own label or its parent's, else the
    // nearest heading before it, else a labelled region's a few levels up.
    function labelOf(container, dom) {
      const up = []; // the container and up to 3 ancestors, below body
      for (let n = container; n && n !== dom.body && up.length < 4; n = dom.parent(n)) up.push(n);
      for (const n of up.slice(0, 2)) {
        const own = ownLabel(n, dom);
        if (own) return own;
      }
      const heading = headingBefore(container, dom);
      if (heading) return heading;
      for (const n of up.slice(2)) {
        const own = ownLabel(n, dom);
        if (own) return own;
      }
      return '';
    }

    const snakeWords = (s) => String(s ?? '')
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
      .toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

    // "results" → "result", "matches" → "match", "stories" → "story"; null
    // when the word is not a plural ("inbox", "news", "status").
    function singular(word) {
      if (word.length <= 3 || /(ss|us|is|news|series)$/.test(word)) return null;
      if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
      if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
      if (/s$/.test(word)) return word.slice(0, -1);
      return null;
    }

    const FILLER_FIRST = new Set(['showing', 'your', 'all', 'the', 'a', 'an', 'our', 'my', 'latest', 'recent']);
    // What follows these says which items, not what they are: "Results for
    // rust", "Flights from Paris", "Messages in Inbox" (the name must not
    // change with the query).
    const CUT_AT = new Set(['for', 'matching', 'about', 'containing', 'from', 'to', 'in', 'on', 'by', 'near', 'with', 'within', 'found']);
    const FILLER_LAST = new Set(['of', 'the', 'a', 'an', 'and']);

    // The tool's name for a list called `label` on a page whose search query
    // is `query` ('' if none): select_{one item}.
    function nameFor(label, query = '') {
      let text = String(label ?? '');
      const q = collapse(query);
      if (q) text = text.replace(new RegExp(q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), ' ');
      text = text.replace(/["“”«»„‘’][^"“”«»„‘’]*["“”«»„‘’]/g, ' ').replace(/\([^)]*\)/g, ' ');
      let words = snakeWords(text).filter((w) => !/^[0-9]+$/.test(w));
      while (words.length && FILLER_FIRST.has(words[0])) words.shift();
      const at = words.findIndex((w, i) => i > 0 && CUT_AT.has(w));
      if (at > 0) words = words.slice(0, at);
      while (words.length && FILLER_LAST.has(words.at(-1))) words.pop();
      if (words.length > 5) words = words.slice(0, 5);
      const bare = words.length === 0 || (words.length === 1 && (words[0] === 'results' || words[0] === 'result'));
      if (bare) words = [q ? 'search' : '', 'result'].filter(Boolean);
      else {
        const one = singular(words.at(-1));
        if (one) words[words.length - 1] = one;
        else if (words.at(-1) !== 'result') words.push('item');
      }
      let name = `select_${words.join('_')}`;
      if (name.length > NAME_MAX) {
        name = name.slice(0, NAME_MAX);
        const u = name.lastIndexOf('_');
        if (u > 'select_'.length) name = name.slice(0, u);
      }
      return name;
    }

    // Names for lists in page order, unique among themselves and `used`
    // (added to it): the second select_result is select_result_2.
    function uniqueName(base, used) {
      let name = base;
      for (let k = 2; used.has(name); k++) {
        const suffix = `_${k}`;
        name = `${base.slice(0, NAME_MAX - suffix.length).replace(/_+$/, '')}${suffix}`;
      }
      used.add(name);
      return name;
    }

    // ---- the tool -----------------------------------------------------------------

    const titleOf = (entry) => cut(entry.primary.text, TITLE_MAX);

    // {description, inputSchema} of the tool for a list of `items` called
    // `label` (page text: the host marks the description untrusted); more:
    // the list goes on past the items looked at.
    function toolFor(items, label, { query = '', more = false } = {}) {
      const n = items.length;
      const links = items.filter((i) => i.primary.kind === 'link').length;
      const what = label ? `the list "${cut(collapse(label), 40)}"` : query ? 'the search results' : 'the list of results';
      const shown = items.slice(0, TITLES_SHOWN).map((e, i) => `${i} ${JSON.stringify(titleOf(e))}`);
      const description = `Open one of the ${more ? 'first ' : ''}${n} items of ${what} by its 0-based index ` +
        `(a trusted click on its ${links * 2 >= n ? 'link' : 'button'}): ${shown.join(', ')}${n > TITLES_SHOWN ? ', …' : ''}`;
      return {
        description,
        inputSchema: {
          type: 'object',
          properties: { index: { type: 'integer', minimum: 0, maximum: n - 1, description: `0-based position in the list (0 to ${n - 1})` } },
          required: ['index'],
        },
      };
    }

    globalThis.__tabbridgeResultLists = Object.freeze({
      ITEM_SELECTOR, MIN_ITEMS, NAME_MAX,
      isItemish, primaryOf, itemsOf, findLists, labelOf, singular, nameFor, uniqueName, toolFor, titleOf,
    });
  } catch { /* never throw into the page */ }
})();
