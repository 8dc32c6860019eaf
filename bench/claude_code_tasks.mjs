// The tasks of bench/claude_code.mjs and each server's shortest path through
// them, as steps of tests/e2e/lib/scripted_agent.mjs: the pages (bench/fixtures),
// the prompt, the steps per server, and the check of the end state (what the
// fixtures reported to the fixture server, POST /report, and what the model
// was shown).
import { announcedTools, lastToolResult } from '../tests/e2e/lib/model_stand_in.mjs';

// -------------------------------------------------------------------- tasks

const SIGNUP = { name: 'Ann Lee', email: 'ann@example.com', password: 'correct horse 42', plan: 'team', billing: 'yearly', terms: true };
const QUERY = 'kettle';
const SECOND = { id: 'k205', name: 'Steel kettle 1.7 l', price: '€34.50' }; // store-catalog.js: the second result for "kettle"
const FLIGHT = { from: 'PAR', to: 'NYC', depart: '2026-12-24' };

export const TASKS = [
  {
    name: 'signup',
    label: 'Sign up, then like (signup.html → welcome.html)',
    path: '/bench/signup.html?next=welcome.html',
    prompt: (url) => `Create an account at ${url} for ${SIGNUP.name} (${SIGNUP.email}, password "${SIGNUP.password}", ` +
      'Team plan, yearly billing, accept the terms), then press Like on the post of the page it lands on.',
    verify(reports) {
      const signup = reports.filter((r) => r.page === 'signup').at(-1)?.state;
      const like = reports.filter((r) => r.page === 'welcome').at(-1)?.state;
      const want = { name: SIGNUP.name, email: SIGNUP.email, passwordLength: SIGNUP.password.length, plan: SIGNUP.plan,
        billing: SIGNUP.billing, newsletter: false, terms: true };
      if (JSON.stringify(signup) !== JSON.stringify(want)) return `the sign-up received ${JSON.stringify(signup)}`;
      if (like?.liked !== true || like.name !== SIGNUP.name) return `the post is not liked: ${JSON.stringify(like)}`;
      return null;
    },
  },
  {
    name: 'search',
    label: `Search "${QUERY}", open the second result, read its price (store.html)`,
    path: '/bench/store.html',
    prompt: (url) => `Search ${url} for "${QUERY}", open the second result and tell me its price.`,
    verify(reports, run) {
      const product = reports.filter((r) => r.page === 'product').at(-1)?.state;
      if (product?.id !== SECOND.id) return `the page shows product ${JSON.stringify(product)}, not ${SECOND.id}`;
      // What the model was shown last, before its answer: the price must be in it.
      const seen = lastToolResult(run.turns.at(-1).body)?.text ?? '';
      if (!seen.includes(SECOND.price)) return `the last tool result does not show the price ${SECOND.price}: ${seen.slice(0, 200)}`;
      return null;
    },
  },
  {
    name: 'flights',
    label: 'Search flights on a page with a declarative form tool (flights.html)',
    path: '/bench/flights.html',
    prompt: (url) => `Search flights from ${FLIGHT.from} to ${FLIGHT.to} on ${FLIGHT.depart} at ${url}.`,
    verify(reports) {
      const q = reports.filter((r) => r.page === 'flight-results').at(-1)?.state;
      if (q?.from !== FLIGHT.from || q?.to !== FLIGHT.to || q?.depart !== FLIGHT.depart) return `the results page got ${JSON.stringify(q)}`;
      return null;
    },
  },
];

// ------------------------------------------------------------------- flows

// Each server's shortest path through a task, as steps of scriptedAgent. mcp(name) is the tool's full
// name; textOf(ctx, tool) the text of its last result. notes gets what the model had to do otherwise.
export function flowFor(cfg, task, url, notes) {
  const mcp = (name) => `mcp__${cfg.server}__${name}`;
  const textOf = (ctx, tool) => ctx.resultOf(mcp(tool))?.text ?? '';
  const need = (value, what) => {
    if (!value) throw new Error(`no ${what}`);
    return value;
  };
  const refIn = (text, role, name, what = `${role} "${name}"`) => need(cfg.ref(text, { role, name }), `ref of ${what} in ${text.slice(0, 400)}`);
  if (cfg.kind === 'tabbridge') {
    // A page's own tool by the name the request announces (tabbridge names them after the page:
    // form_create_account, press_like, webmcp_localhost_<port>_page0_search_flights); when the request does
    // not announce it (yet), the model does it with the generic tools instead: snapshot, then act.
    const ownName = (ctx, re) => [...announcedTools(ctx.body)].find((n) => n.startsWith(mcp('')) && re.test(n.slice(mcp('').length))) ?? null;
    const snapText = (ctx) => textOf(ctx, 'snapshot');
    const snap = (next) => ({ tool: mcp('snapshot'), input: {}, alsoLoad: next.map(mcp) });
    const ref = (ctx, role, name) => refIn(snapText(ctx), role, name);
    // The dispatch surface lists none of the page's tools: the answers say them ("- <name> {schema} …"),
    // and call_webmcp_tool runs one by name.
    const toldName = (ctx, re) => {
      // Claude Code shows a result's structuredContent alone (as JSON) when it has one: the list is its pageTools.
      // Else (a result without one) in a text block, a tool a line: "- <name> {schema} <description>".
      const toldNames = (text) => {
        try {
          return (JSON.parse(text)?.pageTools?.tools ?? []).map((t) => t.name);
        } catch {
          return [...(text ?? '').matchAll(/^- ([a-z0-9_]+) /gm)].map((x) => x[1]);
        }
      };
      for (const r of [...ctx.results].reverse()) {
        const m = toldNames(r.text).find((n) => re.test(n));
        if (m) return m;
      }
      return null;
    };
    const own = (re, input, fallback) => ({
      branch: (ctx) => {
        if (cfg.generic) return fallback;
        if (cfg.surface === 'dispatch') {
          const told = toldName(ctx, re);
          if (told) return [{ tool: mcp('call_webmcp_tool'), input: { name: told, arguments: input } }];
          notes.push(`not told: ${re.source}`);
          return fallback;
        }
        const name = ownName(ctx, re);
        if (name) return [{ tool: name, input }];
        notes.push(`not announced: ${re.source}`);
        return fallback;
      },
    });
    const fillForm = (fields, submit) => ({
      tool: mcp('fill_form'),
      input: (ctx) => ({ fields: fields.map(([role, name, value]) => ({ ref: ref(ctx, role, name), value })), submitRef: ref(ctx, 'button', submit) }),
    });
    const click = (role, name) => ({ tool: mcp('click'), input: (ctx) => ({ ref: ref(ctx, role, name) }) });
    // The state surfaces list connect_browser alone at first; the stable ones list open_tab, which connects.
    const start = cfg.surface.startsWith('state') ? [{ tool: mcp('connect_browser'), input: { launch: true } }] : [];
    const open = { tool: mcp('open_tab'), input: { url } };
    if (task.name === 'signup') {
      return [...start, open,
        own(/^form_create_account$/, SIGNUP, [snap(['fill_form']), fillForm([['textbox', 'Full name', SIGNUP.name],
          ['textbox', 'Work email', SIGNUP.email], ['textbox', 'Password', SIGNUP.password], ['combobox', 'Plan', 'Team'],
          ['radio', 'Yearly (2 months free)', true], ['checkbox', 'I accept the terms of service', true]], 'Create account')]),
        own(/^press_like$/, {}, [snap(['click']), click('button', 'Like')])];
    }
    if (task.name === 'search') {
      // The generic click that opens the result answers where the tab went, not what it says: a snapshot reads the price.
      return [...start, open,
        own(/^form_search$/, { q: QUERY }, [snap(['type']), {
          tool: mcp('type'), input: (ctx) => ({ ref: ref(ctx, 'searchbox', 'Search the store'), text: QUERY, submit: true }),
        }]),
        own(/^select_search_result$/, { index: 1 }, [snap(['click']), click('link', SECOND.name), snap([])])];
    }
    return [...start, open,
      own(/search_flights$/, FLIGHT, [snap(['fill_form']),
        fillForm([['textbox', 'From', FLIGHT.from], ['textbox', 'To', FLIGHT.to], ['textbox', 'Depart', FLIGHT.depart]], 'Search flights')])];
  }
  if (cfg.kind === 'playwright') {
    // Its actions write their snapshot to a file and answer its name (0.0.83): only browser_snapshot shows one.
    const snap = { tool: mcp('browser_snapshot'), input: {} };
    const snapText = (ctx) => textOf(ctx, 'browser_snapshot');
    const click = (element, role, name) => ({
      tool: mcp('browser_click'), input: (ctx) => ({ element, target: refIn(snapText(ctx), role, name) }),
    });
    const navigate = (load) => ({ tool: mcp('browser_navigate'), input: { url }, alsoLoad: load.map(mcp) });
    const field = (ctx, role, name, value) => ({ element: name, target: refIn(snapText(ctx), role, name), name, type: role, value: String(value) });
    if (task.name === 'signup') {
      return [
        navigate(['browser_snapshot', 'browser_fill_form', 'browser_click']), snap,
        {
          tool: mcp('browser_fill_form'), input: (ctx) => ({
            fields: [field(ctx, 'textbox', 'Full name', SIGNUP.name), field(ctx, 'textbox', 'Work email', SIGNUP.email),
              field(ctx, 'textbox', 'Password', SIGNUP.password), field(ctx, 'combobox', 'Plan', 'Team'),
              field(ctx, 'radio', 'Yearly (2 months free)', true), field(ctx, 'checkbox', 'I accept the terms of service', true)],
          }),
        },
        click('Create account button', 'button', 'Create account'), snap, click('Like button', 'button', 'Like'),
      ];
    }
    if (task.name === 'search') {
      return [
        navigate(['browser_snapshot', 'browser_type', 'browser_click']), snap,
        { tool: mcp('browser_type'), input: (ctx) => ({ element: 'store search box', target: refIn(snapText(ctx), 'searchbox', 'Search the store'), text: QUERY, submit: true }) },
        snap, click('second result', 'link', SECOND.name), snap,
      ];
    }
    return [
      navigate(['browser_snapshot', 'browser_fill_form', 'browser_click']), snap,
      {
        tool: mcp('browser_fill_form'), input: (ctx) => ({
          fields: [field(ctx, 'textbox', 'From', FLIGHT.from), field(ctx, 'textbox', 'To', FLIGHT.to), field(ctx, 'textbox', 'Depart', FLIGHT.depart)],
        }),
      },
      click('Search flights button', 'button', 'Search flights'),
    ];
  }
  // chrome-devtools-mcp: new_page answers the pages with their ids; click and fill can answer a snapshot.
  const pageId = (ctx) => Number(need(/^(\d+): .*\[selected\]$/m.exec(textOf(ctx, 'new_page'))?.[1], 'selected page in new_page\'s answer'));
  const lastSnap = (ctx) => {
    const results = ctx.results.filter((r) => /uid=\S+ /.test(r.text));
    return results.at(-1)?.text ?? '';
  };
  const uid = (ctx, role, name) => refIn(lastSnap(ctx), role, name);
  const newPage = (load) => ({ tool: mcp('new_page'), input: { url }, alsoLoad: load.map(mcp) });
  const snap = { tool: mcp('take_snapshot'), input: (ctx) => ({ pageId: pageId(ctx) }) };
  const click = (role, name, includeSnapshot = false) => ({
    tool: mcp('click'), input: (ctx) => ({ pageId: pageId(ctx), uid: uid(ctx, role, name), ...(includeSnapshot ? { includeSnapshot } : {}) }),
  });
  const fillForm = (fields) => ({
    tool: mcp('fill_form'), input: (ctx) => ({ pageId: pageId(ctx), elements: fields.map(([role, name, value]) => ({ uid: uid(ctx, role, name), value: String(value) })) }),
  });
  if (task.name === 'signup') {
    return [
      newPage(['take_snapshot', 'fill_form', 'click']), snap,
      fillForm([['textbox', 'Full name', SIGNUP.name], ['textbox', 'Work email', SIGNUP.email], ['textbox', 'Password', SIGNUP.password],
        ['combobox', 'Plan', 'Team'], ['radio', 'Yearly (2 months free)', true], ['checkbox', 'I accept the terms of service', true]]),
      click('button', 'Create account', true), click('button', 'Like'),
    ];
  }
  if (task.name === 'search') {
    return [
      newPage(['take_snapshot', 'fill', 'click']), snap,
      { tool: mcp('fill'), input: (ctx) => ({ pageId: pageId(ctx), uid: uid(ctx, 'searchbox', 'Search the store'), value: QUERY }) },
      click('button', 'Search', true), click('link', SECOND.name, true),
    ];
  }
  return [
    newPage(['take_snapshot', 'fill_form', 'click']), snap,
    fillForm([['textbox', 'From', FLIGHT.from], ['textbox', 'To', FLIGHT.to], ['Date', 'Depart', FLIGHT.depart]]), // its snapshot's role of a date field
    click('button', 'Search flights'),
  ];
}
