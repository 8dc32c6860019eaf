// The scripted tasks of bench/tasks.mjs: for each, the page, the shortest
// sequence of calls an agent makes with each server (through
// peer_servers.mjs: open, snapshot, find a ref, click, type, fill; or the
// page's own tools where the server lists them), and the check of the page's
// state afterwards (`verify`: JavaScript read through an evaluate the bench
// makes for itself; `expect` says whether its value is the wanted end state).
//
// A flow gets (s, def, url, mode): the Session, its server, the page's URL,
// and 'default' or 'webmcp' (a peer run with its WebMCP support turned on).
import { text } from './peer_servers.mjs';

const need = (ref, what) => {
  if (!ref) throw new Error(`no ref for ${what} in the snapshot`);
  return ref;
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const TODOS = ['Buy milk', 'Call the plumber', 'Water the plants'];
const SIGNUP = { name: 'Ann Lee', email: 'ann@example.com', password: 'correct horse 42', plan: 'team', billing: 'yearly', terms: true };
const CUSTOMER = { name: 'Ann Lee', email: 'ann@example.com', delivery: 'express' };

export const TASKS = [
  {
    name: 'todomvc',
    label: 'TodoMVC (React, todomvc 0.1.1): add 3 todos, complete the 2nd, filter Active',
    path: '/todomvc/examples/react/index.html',
    // Every server the same way: snapshot, type each todo with Enter, snapshot
    // again for the new checkboxes, tick one, click the Active filter.
    async flow(s, def, url) {
      await def.open(s, url);
      const field = need(def.ref(text(await def.snapshot(s)), { role: 'textbox', name: 'What needs to be done?' }), 'the new-todo field');
      if (def.name === 'tabbridge') {
        // The same steps, batched: the three todos and the snapshot in one run_steps, the two clicks in another.
        const typed = text(await s.must('run_steps', {
          steps: [...TODOS.map((todo) => ({ tool: 'type', arguments: { ref: field, text: todo, submit: true } })), { tool: 'snapshot' }],
        }));
        const toggle = need(def.ref(typed, { role: 'checkbox', before: new RegExp(TODOS[1]) }), `the checkbox of "${TODOS[1]}"`);
        const active = need(def.ref(typed, { role: 'link', name: 'Active' }), 'the Active filter');
        return s.must('run_steps', { steps: [{ tool: 'click', arguments: { ref: toggle } }, { tool: 'click', arguments: { ref: active } }] });
      }
      for (const [i, todo] of TODOS.entries()) await def.type(s, field, todo, { submit: true, focused: i > 0, element: 'new todo field' });
      const snapshot = text(await def.snapshot(s));
      const toggle = need(def.ref(snapshot, { role: 'checkbox', before: new RegExp(TODOS[1]) }), `the checkbox of "${TODOS[1]}"`);
      const active = need(def.ref(snapshot, { role: 'link', name: 'Active' }), 'the Active filter');
      await must(def.click(s, toggle, `checkbox of ${TODOS[1]}`));
      await must(def.click(s, active, 'Active filter link'));
    },
    verify: `({ hash: location.hash,
      shown: [...document.querySelectorAll('#todo-list li label')].map((l) => l.textContent),
      stored: JSON.parse(localStorage.getItem('react-todos') || '[]').map((t) => [t.title, t.completed]) })`,
    expect: (v) => v.hash === '#/active' && same(v.shown, [TODOS[0], TODOS[2]]) &&
      same(v.stored, TODOS.map((t, i) => [t, i === 1])),
  },
  {
    name: 'form',
    label: 'Sign-up form (bench/fixtures/signup.html): 7 fields (text, email, password, select, radio, 2 checkboxes), submit',
    path: '/bench/signup.html',
    async flow(s, def, url) {
      await def.open(s, url);
      if (def.name === 'tabbridge') {
        // The page's form is one of the tools tabbridge lists for it.
        return s.must(await s.toolMatching(/^form_create_account$/), SIGNUP);
      }
      const snapshot = text(await def.snapshot(s));
      const ref = (role, name) => need(def.ref(snapshot, { role, name }), `${role} "${name}"`);
      await def.fillForm(s, [
        { ref: ref('textbox', 'Full name'), name: 'Full name', type: 'textbox', value: SIGNUP.name },
        { ref: ref('textbox', 'Work email'), name: 'Work email', type: 'textbox', value: SIGNUP.email },
        { ref: ref('textbox', 'Password'), name: 'Password', type: 'textbox', value: SIGNUP.password },
        { ref: ref('combobox', 'Plan'), name: 'Plan', type: 'combobox', value: 'Team' },
        { ref: ref('radio', 'Yearly (2 months free)'), name: 'Yearly', type: 'radio', value: 'true' },
        { ref: ref('checkbox', 'I accept the terms of service'), name: 'Terms', type: 'checkbox', value: 'true' },
      ]);
      await must(def.click(s, ref('button', 'Create account'), 'Create account button'));
    },
    verify: 'window.signup',
    expect: (v) => same(v, { name: SIGNUP.name, email: SIGNUP.email, passwordLength: SIGNUP.password.length, plan: SIGNUP.plan,
      billing: SIGNUP.billing, newsletter: false, terms: true }),
  },
  {
    name: 'webmcp',
    label: 'WebMCP tea shop (bench/fixtures/tea-shop.html): 2 × Sencha, 1 × Oolong, check out (express)',
    path: '/bench/tea-shop.html',
    peerModes: ['default', 'webmcp'],
    async flow(s, def, url, mode) {
      await def.open(s, url);
      if (def.name === 'tabbridge' || (def.name === 'playwright-mcp' && mode === 'webmcp')) {
        // The page's own tools, listed as MCP tools once the page registered them.
        const add = await s.toolMatching(/(^|_)add_to_cart$/);
        const checkout = await s.toolMatching(/(^|_)checkout$/);
        if (def.name === 'tabbridge') {
          // The page's own tools, batched in one run_steps.
          return s.must('run_steps', {
            steps: [{ tool: add, arguments: { product: 'Sencha', quantity: 2 } }, { tool: add, arguments: { product: 'Oolong' } },
              { tool: checkout, arguments: CUSTOMER }],
          });
        }
        await s.must(add, { product: 'Sencha', quantity: 2 });
        await s.must(add, { product: 'Oolong' });
        return s.must(checkout, CUSTOMER);
      }
      if (mode === 'webmcp') {
        // chrome-devtools-mcp: list the page's tools, then run them by name.
        const run = (toolName, input) => s.must('execute_webmcp_tool', { pageId: s.state.pageId, toolName, input: JSON.stringify(input) });
        await s.must('list_webmcp_tools', { pageId: s.state.pageId });
        await run('add_to_cart', { product: 'Sencha', quantity: 2 });
        await run('add_to_cart', { product: 'Oolong' });
        return run('checkout', CUSTOMER);
      }
      // No WebMCP: the shop's buttons and its checkout form.
      const snapshot = text(await def.snapshot(s));
      const ref = (role, name) => need(def.ref(snapshot, { role, name }), `${role} "${name}"`);
      await must(def.click(s, ref('button', 'Add Sencha to cart'), 'Add Sencha to cart button'));
      await must(def.click(s, ref('button', 'Add Sencha to cart'), 'Add Sencha to cart button'));
      await must(def.click(s, ref('button', 'Add Oolong to cart'), 'Add Oolong to cart button'));
      await def.fillForm(s, [
        { ref: ref('textbox', 'Name'), name: 'Name', type: 'textbox', value: CUSTOMER.name },
        { ref: ref('textbox', 'Email'), name: 'Email', type: 'textbox', value: CUSTOMER.email },
        { ref: ref('combobox', 'Delivery'), name: 'Delivery', type: 'combobox', value: 'Express (next day)' },
      ]);
      await must(def.click(s, ref('button', 'Place order'), 'Place order button'));
    },
    verify: '({ orders: window.orders, tools: window.shopTools })',
    expect: (v) => same(v.orders?.map(({ items, name, email, delivery }) => ({ items, name, email, delivery })), [{
      items: [{ name: 'Sencha', quantity: 2 }, { name: 'Oolong', quantity: 1 }], ...CUSTOMER,
    }]),
  },
];

async function must(resultPromise) {
  const result = await resultPromise;
  if (result.isError) throw new Error(text(result).slice(0, 300));
  return result;
}
