// Lists of results as tools (ISOLATED world, top frame, document_start;
// loaded after forms_kit.js and result_lists.js, before own_tools_relay.js,
// which adds these tools to the form tools it reports): source "results",
// one tool a list, select_{one item} {index} — docs/page_tools.md "Result
// lists" and result_lists.js (what counts as a list, names, descriptions).
//
// Why the isolated world (as forms_isolated.js): a call is a trusted click
// aimed where this world says — the list's element, kept here, and the
// item's element picked here at the call (picks.js). The page's
// scripts cannot reach them.
//
// At most MAX_RESULT_LISTS lists a page, in document order. A call re-reads
// the list it was listed for (the same element) as it is at that moment:
// its items then, the index checked against them.
(() => {
  'use strict';
  try {
    if (window.top !== window) return;
    if (globalThis.__tabbridgeResults) return;
    const kit = globalThis.__tabbridgeFormKit;
    const R = globalThis.__tabbridgeResultLists;
    if (!kit || !R) return;

    // generated: constants MAX_RESULT_LISTS
    const MAX_RESULT_LISTS = 3;
    // end generated (codegen/generate.mjs, from common/protocol.h)
    const SCAN_THROTTLE_MS = 200;
    // A scan of a huge page takes a while: the next waits ten times as long
    // (the scan runs on the page's main thread).
    const SCAN_COST_FACTOR = 10;
    const MAX_WATCHED_CONTAINERS = 50;

    const {
      qs, docQsa, getAttr, matches, textContent, contains, URL_, watchScan,
      locationHref, collapse, visible, childrenOf, firstChildOf, nextOf, prevOf,
      parentOf, isConnected, getElementById, docBody,
    } = kit;

    // result_lists.js's view of the DOM.
    const dom = {
      tag: (el) => el.localName,
      attr: (el, name) => getAttr(el, name),
      children: (el) => [...childrenOf(el)],
      first: (el) => firstChildOf(el),
      next: (el) => nextOf(el),
      prev: (el) => prevOf(el),
      parent: (el) => parentOf(el),
      text: (el) => textContent(el),
      visible: (el) => visible(el),
      disabled: (el) => (el.localName === 'button' || el.localName === 'input' ? matches(el, ':disabled') : false) ||
        getAttr(el, 'aria-disabled') === 'true',
      byId: (id) => getElementById(document, id),
      get body() { return docBody(document); },
    };

    // The page's search query: a search field's value, else q= (or the like) in the URL.
    const SEARCH_FIELDS = 'input[type="search"], [role="searchbox"], [role="search"] input, input[name="q"], ' +
      'input[name="query"], input[name="search"], input[name="s"], input[name="k"], input[name="keywords"], input[name="term"]';
    const SEARCH_PARAMS = ['q', 'query', 'search', 's', 'k', 'keywords', 'term'];
    const queryOf = () => {
      try {
        for (const el of docQsa(document, SEARCH_FIELDS)) {
          const v = typeof el.value === 'string' ? collapse(el.value) : '';
          if (v && el.type !== 'hidden') return v;
        }
        const params = new URL_(locationHref()).searchParams;
        for (const k of SEARCH_PARAMS) {
          const v = collapse(params.get(k));
          if (v) return v;
        }
      } catch { /* an odd page */ }
      return '';
    };

    // name -> {container, kind} of the last list reported; the containers the
    // last scan saw (re-scan when one of them changes).
    let current = new Map();
    let watched = [];

    function scan() {
      const { lists, containers } = R.findLists([...docQsa(document, R.ITEM_SELECTOR)], dom, { max: MAX_RESULT_LISTS });
      watched = containers.slice(0, MAX_WATCHED_CONTAINERS);
      const query = lists.length ? queryOf() : '';
      const used = new Set();
      const tools = [];
      const targets = new Map();
      for (const l of lists) {
        const label = R.labelOf(l.container, dom);
        const name = R.uniqueName(R.nameFor(label, query), used);
        const { description, inputSchema } = R.toolFor(l.items, label, { query, more: l.more });
        tools.push({ name, source: 'results', description, inputSchema, readOnly: false });
        targets.set(name, { container: l.container, kind: l.kind });
      }
      return { tools, targets };
    }

    // The item at `index` of the list listed as `name`, now: {picked: the
    // token the page agent aims by (picks.js), count} or {error, count?}.
    function target(name, index) {
      const t = current.get(name);
      if (!t) return { error: 'gone' };
      if (!isConnected(t.container)) return { error: 'the list is no longer in the page' };
      const { items } = R.itemsOf(t.container, dom, t.kind);
      if (!Number.isInteger(index) || index < 0 || index >= items.length) {
        return { error: 'range', count: items.length };
      }
      return { picked: globalThis.__tabbridgePicks.pick(items[index].primary.el), count: items.length };
    }

    // ---- watching (forms_kit.js watchScan) -------------------------------------

    const inWatched = (node) => {
      for (const c of watched) if (contains(c, node)) return true;
      return false;
    };
    const holdsWatched = (el) => {
      for (const c of watched) if (contains(el, c)) return true;
      return false;
    };
    const itemish = (node) => {
      if (node.nodeType !== 1) return false;
      try {
        return matches(node, R.ITEM_SELECTOR) || !!qs(node, R.ITEM_SELECTOR);
      } catch {
        return false;
      }
    };
    // A list changes when items come or go, when something inside one of the
    // lists seen changes (a title, a link), or when one of them (or what
    // holds it) is shown or hidden.
    const touches = (r) => {
      try {
        if (r.type === 'childList') {
          if (inWatched(r.target)) return true;
          for (const n of r.addedNodes) if (itemish(n)) return true;
          for (const n of r.removedNodes) if (itemish(n)) return true;
        } else if (r.type === 'characterData') {
          if (inWatched(r.target)) return true;
        } else if (r.type === 'attributes' && r.target.nodeType === 1) {
          if (inWatched(r.target) || holdsWatched(r.target)) return true;
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
        'href', 'role', 'aria-label', 'aria-labelledby'],
      throttleMs: SCAN_THROTTLE_MS,
      costFactor: SCAN_COST_FACTOR,
    });
    globalThis.__tabbridgeResults = watcher.api({
      target: (name, index) => {
        try {
          return target(name, index);
        } catch (e) {
          return { error: `could not read the list: ${String(e?.message ?? e)}` };
        }
      },
    });
    watcher.start();
  } catch { /* never throw into the page */ }
})();
