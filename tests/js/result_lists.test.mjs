// extension/page/result_lists.js on a tiny DOM stub: which lists of a page
// become result-list tools (select_… {index}), which control of an item a
// call clicks, how a list's tool is named (from its label, heading, the
// search query) and described (count, first titles, 0-based index schema).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const source = readFileSync(new URL('../../extension/page/result_lists.js', import.meta.url), 'utf8');
const context = vm.createContext({});
vm.runInContext(source, context, { filename: 'result_lists.js' });
const R = context.__tabbridgeResultLists;
const plain = (x) => JSON.parse(JSON.stringify(x));

// ---- a tiny DOM ------------------------------------------------------------------
// h(tag, attrs, ...children): children are elements or strings (text).
// attrs.hidden: not visible (and nothing inside it); attrs.disabled: disabled.

function h(tag, attrs = {}, ...kids) {
  const el = { localName: tag, attrs, kids, children: kids.filter((k) => typeof k === 'object'), parent: null };
  for (const c of el.children) c.parent = el;
  return el;
}
function page(...kids) {
  const body = h('body', {}, ...kids);
  const all = [];
  const walk = (el) => {
    all.push(el);
    el.children.forEach(walk);
  };
  walk(body);
  const dom = {
    body,
    tag: (el) => el.localName,
    attr: (el, name) => (name in el.attrs ? String(el.attrs[name]) : null),
    children: (el) => el.children,
    first: (el) => el.children[0] ?? null,
    next: (el) => (el.parent ? el.parent.children[el.parent.children.indexOf(el) + 1] ?? null : null),
    prev: (el) => (el.parent ? el.parent.children[el.parent.children.indexOf(el) - 1] ?? null : null),
    parent: (el) => el.parent,
    text: (el) => el.kids.map((k) => (typeof k === 'string' ? k : dom.text(k))).join(' '),
    visible: (el) => {
      for (let n = el; n; n = n.parent) if ('hidden' in n.attrs) return false;
      return true;
    },
    disabled: (el) => 'disabled' in el.attrs,
    byId: (id) => all.find((e) => e.attrs.id === id) ?? null,
  };
  return { dom, all, find: (max) => R.findLists(all, dom, max === undefined ? {} : { max }) };
}

const result = (title, snippet = 'A short snippet of what the page says about it') =>
  h('li', {}, h('h3', {}, h('a', { href: `/${title}` }, title)), h('p', {}, snippet), h('a', { href: '/cache' }, 'Cached copy of the page'));
const titles = (list) => plain(list.items.map((i) => i.primary.text));

describe('findLists: what is a list of results', () => {
  it('search results: each item\'s link inside its heading is the one clicked', () => {
    const { find } = page(h('ul', { id: 'r' }, result('Rust book'), result('Tokio tutorial'), result('Serde guide')));
    const { lists } = find();
    assert.equal(lists.length, 1);
    assert.equal(lists[0].container.attrs.id, 'r');
    assert.deepEqual(titles(lists[0]), ['Rust book', 'Tokio tutorial', 'Serde guide']);
    assert.ok(lists[0].items.every((i) => i.primary.kind === 'link' && i.primary.el.localName === 'a'));
  });

  it('fewer than 3 items is no list', () => {
    assert.equal(page(h('ul', {}, result('One'), result('Two'))).find().lists.length, 0);
  });

  it('menus, navigation and sidebars are not results: inside nav, footer, aside, role=navigation/menu', () => {
    const links = () => ['Home of the whole site', 'About the whole company', 'Contact us by mail or phone']
      .map((t) => h('li', {}, h('a', { href: '/x' }, t)));
    const { lists } = page(
      h('nav', {}, h('ul', {}, ...links())),
      h('footer', {}, h('ul', {}, ...links())),
      h('aside', {}, h('ul', {}, ...links())),
      h('div', { role: 'navigation' }, h('ul', {}, ...links())),
      h('ul', { role: 'menu' }, ...links()),
    ).find();
    assert.equal(lists.length, 0);
  });

  it('bare short links (pagination, tags) are no list: items average under 16 characters', () => {
    const pages = h('ol', {}, ...['1', '2', '3', '4', 'Next'].map((t) => h('li', {}, h('a', { href: `/p${t}` }, t))));
    assert.equal(page(pages).find().lists.length, 0);
  });

  it('inbox rows of buttons: the subject button, never Archive or Delete', () => {
    const row = (subject) => h('li', { role: 'listitem' },
      h('button', {}, 'Archive'), h('button', {}, subject), h('button', { 'aria-label': 'Delete message' }, '×'));
    const { lists } = page(h('div', { role: 'list' }, row('Ann: lunch on Friday?'), row('Bob: the report'), row('Cy: tickets'))).find();
    assert.equal(lists.length, 1);
    assert.deepEqual(titles(lists[0]), ['Ann: lunch on Friday?', 'Bob: the report', 'Cy: tickets']);
    assert.ok(lists[0].items.every((i) => i.primary.kind === 'button'));
  });

  it('items whose only controls act on them (Delete, Edit) are no list of results', () => {
    const todo = (t) => h('li', {}, h('span', {}, t), h('button', {}, 'Delete'), h('a', { href: '#' }, 'Edit'));
    assert.equal(page(h('ul', {}, todo('Buy milk and bread'), todo('Walk the dog twice'), todo('Call the plumber'))).find().lists.length, 0);
  });

  it('a link is preferred to a button, the longest link of an item when none is in a heading', () => {
    const item = (t) => h('li', {}, h('button', {}, `Quick look at ${t} now`), h('a', { href: '/a' }, 'More'), h('a', { href: '/b' }, t));
    const { lists } = page(h('ul', {}, item('Flight AF 22'), item('Flight BA 117'), item('Flight LH 400'))).find();
    assert.deepEqual(titles(lists[0]), ['Flight AF 22', 'Flight BA 117', 'Flight LH 400']);
  });

  it('an item that is itself a link counts (role=listitem on the <a>)', () => {
    const items = ['The first article here', 'The second article here', 'The third article here']
      .map((t) => h('a', { role: 'listitem', href: `/${t}` }, t));
    const { lists } = page(h('div', {}, ...items)).find();
    assert.equal(lists.length, 1);
    assert.equal(lists[0].items[0].primary.el, items[0]);
  });

  it('hidden items and items with only disabled controls are not indexed', () => {
    const { lists } = page(h('ul', {},
      result('Zero'), h('li', { hidden: '' }, h('a', { href: '/h' }, 'Hidden result title')), result('One'),
      h('li', {}, h('button', { disabled: '' }, 'Disabled result title')), result('Two'))).find();
    assert.deepEqual(titles(lists[0]), ['Zero', 'One', 'Two']);
  });

  it('a list inside an item of a list already taken (sitelinks) is not another list', () => {
    const withLinks = (t) => h('li', {}, h('h3', {}, h('a', { href: '/' }, t)), h('p', {}, 'snippet text of the result'),
      h('ul', {}, ...['Docs of the project', 'Blog of the project', 'Source of the project'].map((s) => h('li', {}, h('a', { href: '/s' }, s)))));
    const { lists } = page(h('ul', { id: 'outer' }, withLinks('A'), withLinks('B'), withLinks('C'))).find();
    assert.equal(lists.length, 1);
    assert.equal(lists[0].container.attrs.id, 'outer');
  });

  it('table rows with a link each; the header row (no link) is not an item', () => {
    const row = (id) => h('tr', {}, h('td', {}, h('a', { href: `/o/${id}` }, `Order ${id}`)), h('td', {}, 'shipped on Monday'));
    const { lists } = page(h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Order'), h('th', {}, 'Status'))),
      h('tbody', { id: 'tb' }, row(1), row(2), row(3), row(4)))).find();
    assert.equal(lists.length, 1);
    assert.equal(lists[0].container.attrs.id, 'tb');
    assert.equal(lists[0].items.length, 4);
  });

  it('at most `max` lists, in document order; every list-like parent is reported for watching', () => {
    const ul = (id) => h('ul', { id }, result(`${id} 1`), result(`${id} 2`), result(`${id} 3`));
    const hiddenUl = h('ul', { id: 'later', hidden: '' }, result('x'), result('y'), result('z'));
    const { lists, containers } = page(ul('a'), hiddenUl, ul('b'), ul('c'), ul('d')).find(2);
    assert.deepEqual(plain(lists.map((l) => l.container.attrs.id)), ['a', 'b']);
    assert.ok(containers.includes(hiddenUl), 'a hidden list is watched: it may show');
  });

  it('itemsOf re-reads a list as it is now (a call checks its index against these)', () => {
    const ul = h('ul', {}, result('One'), result('Two'), result('Three'));
    const { dom, find } = page(ul);
    const { lists } = find();
    ul.children.push(Object.assign(result('Four'), { parent: ul }));
    ul.kids.push(ul.children.at(-1));
    assert.deepEqual(plain(R.itemsOf(ul, dom, lists[0].kind).items.map((i) => i.primary.text)), ['One', 'Two', 'Three', 'Four']);
  });
});

describe('labelOf: what the page calls the list', () => {
  const three = () => [result('One'), result('Two'), result('Three')];
  const labelOf = (...kids) => {
    const { dom, find } = page(...kids);
    return R.labelOf(find().lists[0].container, dom);
  };

  it('its aria-label, else aria-labelledby, else a labelled region around it', () => {
    assert.equal(labelOf(h('ul', { 'aria-label': ' Search   results ' }, ...three())), 'Search results');
    assert.equal(labelOf(h('span', { id: 'l' }, 'Your', h('b', {}, 'orders')), h('ul', { 'aria-labelledby': 'l missing' }, ...three())), 'Your orders');
    assert.equal(labelOf(h('section', { 'aria-label': 'Inbox' }, h('div', {}, h('ul', {}, ...three())))), 'Inbox');
  });

  it('a heading before the list names it before a labelled region far around it', () => {
    assert.equal(labelOf(h('main', { 'aria-label': 'Main content' }, h('div', {}, h('h2', {}, 'Orders'), h('div', {}, h('ul', {}, ...three()))))), 'Orders');
  });

  it('else the nearest heading before it (a sibling, or a sibling of what holds it)', () => {
    assert.equal(labelOf(h('h2', {}, 'Flights'), h('p', {}, 'intro'), h('ul', {}, ...three())), 'Flights');
    assert.equal(labelOf(h('div', {}, h('h2', {}, 'Top stories')), h('div', {}, h('ul', {}, ...three()))), 'Top stories');
  });

  it('a table\'s caption', () => {
    const row = (n) => h('tr', {}, h('td', {}, h('a', { href: '/' }, `Invoice number ${n}`)));
    assert.equal(labelOf(h('table', {}, h('caption', {}, 'Invoices'), h('tbody', {}, row(1), row(2), row(3)))), 'Invoices');
  });

  it('nothing: empty', () => {
    assert.equal(labelOf(h('ul', {}, ...three())), '');
  });
});

describe('nameFor: select_{one item}', () => {
  const cases = [
    ['Search results', '', 'select_search_result'],
    ['Flights', '', 'select_flight'],
    ['Inbox', '', 'select_inbox_item'],
    ['Inbox messages', '', 'select_inbox_message'],
    ['Top stories', '', 'select_top_story'],
    ['Matches', '', 'select_match'],
    ['Latest news', '', 'select_news_item'],
    ['12 results for “rust”', 'rust', 'select_search_result'],
    ['Results for rust (12)', 'rust', 'select_search_result'],
    ['Messages in Inbox', '', 'select_message'],
    ['Flights from Paris to New York', '', 'select_flight'],
    ['rust', 'rust', 'select_search_result'],
    ['', 'rust', 'select_search_result'],
    ['', '', 'select_result'],
    ['Results', '', 'select_result'],
    ['検索結果', '', 'select_result'],
    ['Résultats', '', 'select_resultat'],
    ['SearchResults', '', 'select_search_result'],
  ];
  for (const [label, query, want] of cases) {
    it(`${JSON.stringify(label)}${query ? ` (query ${JSON.stringify(query)})` : ''} → ${want}`, () => {
      assert.equal(R.nameFor(label, query), want);
    });
  }

  it('snake_case [a-z0-9_] within 40 characters, cut at a word', () => {
    const name = R.nameFor('Extraordinarily long descriptive heading words of many kinds', '');
    assert.match(name, /^select_[a-z0-9_]+$/);
    assert.ok(name.length <= R.NAME_MAX, name);
    assert.ok(!name.endsWith('_'), name);
    for (const odd of ['<script>alert(1)</script>', 'a\u202Eb', '"; drop', '__proto__', '\n\t']) assert.match(R.nameFor(odd, ''), /^select_[a-z0-9_]+$/);
  });

  it('singular: plurals only', () => {
    assert.equal(R.singular('results'), 'result');
    assert.equal(R.singular('stories'), 'story');
    assert.equal(R.singular('boxes'), 'box');
    for (const w of ['inbox', 'news', 'status', 'class', 'bus', 'analysis', 'series', 'its']) assert.equal(R.singular(w), null, w);
  });

  it('uniqueName numbers a second list of the same name, within 40 characters', () => {
    const used = new Set();
    assert.equal(R.uniqueName('select_result', used), 'select_result');
    assert.equal(R.uniqueName('select_result', used), 'select_result_2');
    assert.equal(R.uniqueName('select_result', used), 'select_result_3');
    const long = `select_${'x'.repeat(33)}`;
    R.uniqueName(long, used);
    const second = R.uniqueName(long, used);
    assert.ok(second.endsWith('_2') && second.length <= R.NAME_MAX, second);
  });
});

describe('toolFor: a short description and an index', () => {
  const items = (...ts) => ts.map((t) => ({ primary: { text: t, kind: 'link' } }));

  it('says how many, what list, and the first three titles with their indexes', () => {
    const t = R.toolFor(items('Rust book', 'Tokio tutorial', 'Serde guide', 'Axum'), 'Search results');
    assert.equal(t.description, 'Open one of the 4 items of the list "Search results" by its 0-based index ' +
      '(a trusted click on its link): 0 "Rust book", 1 "Tokio tutorial", 2 "Serde guide", …');
  });

  it('the schema: index, a required integer from 0 to count - 1', () => {
    assert.deepEqual(plain(R.toolFor(items('a', 'b', 'c'), '').inputSchema), {
      type: 'object',
      properties: { index: { type: 'integer', minimum: 0, maximum: 2, description: '0-based position in the list (0 to 2)' } },
      required: ['index'],
    });
  });

  it('buttons say button; no label says search results or the list of results', () => {
    const buttons = items('a', 'b', 'c').map((i) => ({ primary: { ...i.primary, kind: 'button' } }));
    assert.match(R.toolFor(buttons, '').description, /the list of results .*click on its button\): 0 "a", 1 "b", 2 "c"$/);
    assert.match(R.toolFor(buttons, '', { query: 'q' }).description, /of the search results/);
  });

  it('page text stays short and quoted: titles cut at 36, the label at 40, the whole under 300', () => {
    const long = 'W'.repeat(500);
    const t = R.toolFor(items(long, `"quoted" ${long}`, long, long), long);
    assert.ok(t.description.length < 300, `${t.description.length}: ${t.description}`);
    assert.ok(t.description.includes(`"${'W'.repeat(35)}…"`), t.description);
    assert.ok(t.description.includes('"\\"quoted\\" '), 'a quote in a title is escaped, not a way out of it');
  });
});
