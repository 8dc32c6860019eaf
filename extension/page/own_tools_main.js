// The page's own tools, page side (MAIN world, top frame of http(s) pages,
// document_start; see manifest.json and docs/protocol.md "The page's own
// tools"). Defines the registry at window[Symbol.for('tabbridge.owntools.v1')]
// that lists the page's WebMCP tools (native, the polyfill, the legacy API)
// and runs them, and hands the list to own_tools_relay.js (ISOLATED world) as
// a CustomEvent whose detail is a JSON string (objects do not cross worlds;
// strings do). The page can reach this registry, so it holds nothing the page
// may not: no other source, no targets — form tools live in the isolated
// world (forms_isolated.js), and what this world lists is only ever run by
// the page itself. Everything the page could later replace is captured up
// front. A classic script, not a module: content scripts cannot be modules.
//
// What the real APIs do (Chromium 156 --enable-features=WebMCP, @mcp-b/global 5.1):
// * native document.modelContext (ModelContext, an EventTarget): registerTool(tool,
//   {signal}) returns a Promise; getTools() resolves [{name, title, description,
//   inputSchema (object, absent when the tool gave none), annotations?
//   {readOnlyHint, …}, origin, window}], <form toolname> included;
//   executeTool(registeredTool, argsObject) resolves the JSON text of what
//   execute() returned (a string as is) and rejects with a message-less
//   DOMException UnknownError when execute throws; `toolchange` fires on every
//   register and unregister.
// * @mcp-b/global replaces document.modelContext with a BrowserMcpServer
//   (__isBrowserMcpServer) wrapping the native context or its own polyfill: the
//   same surface, but executeTool wants the arguments as a JSON string when no
//   native context is under it.
// * Chrome 146–151 (legacy): navigator.modelContext plus
//   navigator.modelContextTesting {listTools() → [{name, description,
//   inputSchema: JSON string}], executeTool(name, argsJson),
//   registerToolsChangedCallback(cb)}.

(() => {
  const KEY = Symbol.for('tabbridge.owntools.v1');
  if (window !== window.top) return; // the top document's tools only
  const existing = window[KEY];
  if (existing) { // injected twice (manifest + programmatic after an update)
    try { existing.report(); } catch { /* never break the page */ }
    return;
  }

  const LIST_EVENT = 'tabbridge:owntools-list:v1'; // → relay: detail is the JSON list
  const READY_EVENT = 'tabbridge:owntools-ready:v1'; // ← relay: listening, (re)send the list
  const PING_EVENT = 'tabbridge:owntools-ping:v1'; // → relay: announce yourself

  // OwnToolLimits of worker/wire.js (a content script cannot import it).
  // generated: constants MAX_REPORTED_TOOLS MAX_NAME_CHARS MAX_DESCRIPTION_CHARS MAX_SCHEMA_BYTES MAX_ERROR_CHARS DEBOUNCE_MS
  const MAX_REPORTED_TOOLS = 256;
  const MAX_NAME_CHARS = 128;
  const MAX_DESCRIPTION_CHARS = 1024;
  const MAX_SCHEMA_BYTES = 8192;
  const MAX_ERROR_CHARS = 4096;
  const DEBOUNCE_MS = 150;
  // end generated (codegen/generate.mjs, from common/protocol.h)
  const SOURCE_LIST_TIMEOUT_MS = 3000; // a source whose list hangs must not stall the others
  const PROBE_AFTER_LOAD_MS = [250, 1000, 3000, 8000]; // @mcp-b/global often comes late

  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const CustomEventCtor = CustomEvent;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const listen = EventTarget.prototype.addEventListener;
  const setT = window.setTimeout;
  const clearT = window.clearTimeout;
  const MapCtor = Map;
  const PromiseCtor = Promise;
  const race = Promise.race;
  const WeakSetCtor = WeakSet;
  const ErrorCtor = Error;
  const MutationObserverCtor = MutationObserver;
  const isArray = Array.isArray;
  const ownKeys = Object.keys;
  const hasOwn = Object.hasOwn;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const fnToString = Function.prototype.toString;
  const utf8Length = ((enc) => (s) => enc.encode(s).length)(new TextEncoder());
  const doc = document;
  const nav = navigator;
  const later = (fn, ms) => setT.call(window, fn, ms);
  const forms = Document.prototype.getElementsByTagName;
  const getAttr = Element.prototype.getAttribute;
  const hasAttr = Element.prototype.hasAttribute;

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
  // A tool name in a message: one line, capped.
  const label = (name) => cut(String(name).replace(/\s+/g, ' ').trim(), MAX_NAME_CHARS);
  const messageOf = (e) => {
    let m;
    try { m = String(e?.message ?? e); } catch { m = 'unknown error'; }
    return cut(m, MAX_ERROR_CHARS);
  };

  // The browser's own context, before any page script could replace it: what
  // `native` means (also when a polyfill wraps it later).
  let nativeContext = null;
  try { nativeContext = doc.modelContext ?? null; } catch { /* ignore */ }
  let nativeAtStart = false;
  try {
    nativeAtStart = !!nativeContext && !nativeContext.__isWebMCPPolyfill && !nativeContext.__isBrowserMcpServer;
  } catch { /* ignore */ }

  // --- keeping the page's real error messages ---------------------------------
  // Native executeTool() rejects with a generic UnknownError when execute()
  // throws; wrap each registered execute() so the real message is kept for the
  // answer. The browser gets a plain object with the tool's members, read
  // through the tool itself (a class's getters may use #private fields, which
  // only the tool has); execute runs with the tool as `this`.
  const lastError = new MapCtor(); // tool name -> message of its last throw
  const nativeProto = typeof ModelContext === 'function' ? ModelContext.prototype : null;
  const nativeRegister = nativeProto?.registerTool;
  if (typeof nativeRegister === 'function') {
    const MEMBERS = ['name', 'title', 'description', 'inputSchema', 'annotations'];
    const wrapTool = (tool) => {
      const execute = tool.execute;
      const name = String(tool.name);
      const wrapped = {};
      for (const k of [...MEMBERS, ...ownKeys(tool)]) {
        if (k === 'execute' || hasOwn(wrapped, k)) continue;
        const v = tool[k];
        if (v !== undefined) defineProperty(wrapped, k, { value: v, writable: true, enumerable: true, configurable: true });
      }
      defineProperty(wrapped, 'execute', {
        enumerable: true,
        value(...args) {
          let r;
          try {
            r = execute.apply(tool, args);
          } catch (e) {
            lastError.set(name, messageOf(e));
            throw e;
          }
          if (r && typeof r.then === 'function') {
            return r.then(undefined, (e) => { lastError.set(name, messageOf(e)); throw e; });
          }
          return r;
        },
      });
      return wrapped;
    };
    const registerTool = {
      registerTool(tool, ...rest) {
        let t = tool;
        try {
          if (tool !== null && typeof tool === 'object' && typeof tool.execute === 'function') t = wrapTool(tool);
        } catch { t = tool; }
        return nativeRegister.call(this, t, ...rest);
      },
    }.registerTool;
    try {
      defineProperty(registerTool, 'toString', { value: () => fnToString.call(nativeRegister) });
      defineProperty(nativeProto, 'registerTool', { value: registerTool, writable: true, configurable: true, enumerable: true });
    } catch { /* leave it be */ }
  }

  // --- the WebMCP runtime -------------------------------------------------------

  // {api, context?, testing?} the page has now.
  function runtime() {
    let mc = null;
    try { mc = doc.modelContext ?? null; } catch { /* ignore */ }
    if (mc && typeof mc === 'object' && typeof mc.getTools === 'function') {
      return { api: mc === nativeContext ? 'native' : 'polyfill', context: mc };
    }
    let testing = null;
    try { testing = nav.modelContext ? nav.modelContextTesting ?? null : null; } catch { /* ignore */ }
    if (testing && typeof testing.listTools === 'function') return { api: 'legacy', testing };
    return { api: null };
  }

  const watched = new WeakSetCtor();
  function watch(rt) {
    const target = rt.context ?? rt.testing;
    if (!target || watched.has(target)) return false;
    watched.add(target);
    try {
      if (typeof target.addEventListener === 'function') {
        listen.call(target, 'toolchange', () => registry.changed());
      } else if (typeof target.registerToolsChangedCallback === 'function') {
        target.registerToolsChangedCallback(() => registry.changed());
      }
    } catch { /* the list is re-read on load anyway */ }
    return true;
  }

  function schemaOf(raw) {
    if (raw === undefined || raw === null || raw === '') return undefined;
    if (typeof raw === 'string') {
      try { return parse(raw); } catch { return null; }
    }
    return raw;
  }

  async function webmcpList() {
    const rt = runtime();
    watch(rt);
    let raw;
    if (rt.context) raw = await rt.context.getTools();
    else if (rt.testing) raw = await rt.testing.listTools();
    else return [];
    if (!isArray(raw)) return [];
    const out = [];
    for (const t of raw) {
      try {
        const hint = t?.annotations?.readOnlyHint;
        out.push({
          name: t.name,
          source: rt.api,
          description: t.description,
          inputSchema: schemaOf(t.inputSchema),
          readOnly: typeof hint === 'boolean' ? hint : null,
        });
      } catch { /* a tool whose getters throw is not listed */ }
    }
    return out;
  }

  // "…: boom" from the polyfill, the captured message for native; capped.
  function failure(name, e) {
    const m = messageOf(e);
    const kept = lastError.get(name);
    let isUnknown = false;
    try { isUnknown = e?.name === 'UnknownError'; } catch { /* ignore */ }
    if (kept !== undefined && (isUnknown || /invocation failed/i.test(m))) return new ErrorCtor(kept);
    const tail = /threw an error: ([\s\S]*)$/.exec(m);
    return new ErrorCtor(tail ? tail[1] : m);
  }

  // A declarative form (<form toolname>) without toolautosubmit: the browser
  // fills it, then waits for the user to review and submit it. The call
  // answers that once the browser had its moment to fill the form, instead of
  // holding on until the user acts (or the call's deadline).
  const PENDING_AFTER_MS = 1000;
  const PENDING = 'pending form submission: the form is filled and waits for the user to review and submit it — ' +
    'ask the user to check it and press its submit button';
  function awaitsUserSubmit(name) {
    const all = forms.call(doc, 'form');
    for (let i = 0; i < all.length; i++) {
      if (getAttr.call(all[i], 'toolname') === name) return !hasAttr.call(all[i], 'toolautosubmit');
    }
    return false;
  }

  // The page's current tools, by name, for an answer that names a tool gone.
  const namesOf = (tools) => {
    const names = isArray(tools) ? tools.map((t) => label(t?.name)) : [];
    return names.length ? `${names.slice(0, 20).join(', ')}${names.length > 20 ? `, … (${names.length} in all)` : ''}` : 'none';
  };

  // args: the model's arguments, as JSON text (which keeps their order) or an object.
  async function webmcpCall(name, args) {
    const rt = runtime();
    if (typeof args === 'string') {
      try { args = parse(args); } catch { args = null; }
    }
    let input = args && typeof args === 'object' && !isArray(args) ? args : {};
    lastError.delete(name);
    try {
      if (!rt.testing && !rt.context) throw new ErrorCtor('the page has no WebMCP runtime any more');
      const tools = rt.testing ? await rt.testing.listTools() : await rt.context.getTools();
      const tool = isArray(tools) ? tools.find((t) => t?.name === name) : undefined;
      if (!tool) throw new ErrorCtor(`the page has no tool named ${label(name)} any more — its tools now: ${namesOf(tools)}`);
      // A tool whose input is not an object was listed wrapped (publicTool): it gets the value itself.
      const wrapped = wrapsInput(schemaOf(tool.inputSchema));
      if (wrapped) input = input[INPUT];
      if (rt.testing) return await rt.testing.executeTool(name, stringify(input));
      if (wrapped && (input === null || typeof input !== 'object') && rt.api === 'native') {
        throw new ErrorCtor(`the browser's WebMCP passes a tool only an object or an array, and this tool's input schema ` +
          `asks for ${stringify(schemaOf(tool.inputSchema).type)}: the browser cannot run it`);
      }
      try {
        if (awaitsUserSubmit(name)) {
          const running = rt.context.executeTool(tool, input);
          running.catch(() => {}); // settles when the user submits, if ever: nobody waits then
          return await race.call(PromiseCtor, [running, new PromiseCtor((resolve) => later(() => resolve(PENDING), PENDING_AFTER_MS))]);
        }
        return await rt.context.executeTool(tool, input);
      } catch (e) {
        // The polyfill without a native context under it parses a JSON string.
        if (!/parse input arguments/i.test(String(e?.message))) throw e;
        return await rt.context.executeTool(tool, stringify(input));
      }
    } catch (e) {
      throw failure(name, e);
    } finally {
      lastError.delete(name);
    }
  }

  // --- the registry ---------------------------------------------------------------

  const sources = new MapCtor(); // id -> {list, call?}, in the order added: first wins
  let lastDetail = null; // JSON text of the last list handed over: what "changed" compares
  let relayReady = false;
  let timer = null;
  let listing = false;
  let again = false;

  async function withTimeout(promise, ms) {
    let t;
    try {
      return await race.call(PromiseCtor, [
        promise,
        new PromiseCtor((_, reject) => { t = later(() => reject(new ErrorCtor('timed out')), ms); }),
      ]);
    } finally {
      clearT.call(window, t);
    }
  }

  // A tool's input that is not an object ({type: "string"}, an array, …) is
  // listed as an object of one property, INPUT, and unwrapped on the call
  // (MCP tools take objects; docs/page_tools.md "Arguments").
  const INPUT = 'input';
  function wrapsInput(s) {
    return !!s && typeof s === 'object' && !isArray(s) && s.type !== undefined && s.type !== 'object';
  }
  const wrapInput = (s) => ({
    type: 'object',
    description: `the tool's whole input is "${INPUT}"`,
    properties: { [INPUT]: s },
    required: [INPUT],
  });

  // The public part of a descriptor, within the limits; null when unusable.
  function publicTool(d) {
    if (!d || typeof d !== 'object' || typeof d.name !== 'string') return null;
    const name = d.name;
    if (!name || name.length > MAX_NAME_CHARS) return null;
    const tool = {
      name,
      source: typeof d.source === 'string' ? d.source : 'unknown',
      description: typeof d.description === 'string' ? cut(d.description, MAX_DESCRIPTION_CHARS) : '',
      inputSchema: { type: 'object', properties: {} },
      readOnly: typeof d.readOnly === 'boolean' ? d.readOnly : null,
    };
    const s = wrapsInput(d.inputSchema) ? wrapInput(d.inputSchema) : d.inputSchema;
    if (s !== undefined) {
      let text = null;
      try {
        if (s && typeof s === 'object' && !isArray(s) && (s.type === undefined || s.type === 'object')) text = stringify(s);
      } catch { text = null; }
      if (text !== null && utf8Length(text) <= MAX_SCHEMA_BYTES) {
        tool.inputSchema = parse(text);
        if (tool.inputSchema.type === undefined) tool.inputSchema.type = 'object';
      } else {
        tool.schemaDropped = true;
      }
    }
    return tool;
  }

  function send(detail) {
    if (!relayReady) return;
    try {
      dispatch.call(window, new CustomEventCtor(LIST_EVENT, { detail }));
    } catch { /* never break the page */ }
  }

  // A page between pagehide and pageshow (on its way into the back/forward
  // cache, or unloading) asks the browser nothing: Chromium 156 kills its
  // whole browser process (a CHECK, SIGILL) when document.modelContext.getTools()
  // comes from a document entering the cache while the next one commits
  // (issue 30; docs/behaviour.md). A page shown again lists afresh.
  let hidden = false; // set and cleared by the browser's own events only (isTrusted)
  listen.call(window, 'pagehide', (e) => { if (e.isTrusted) hidden = true; });
  listen.call(window, 'pageshow', (e) => {
    if (!e.isTrusted || !hidden) return;
    hidden = false;
    registry.changed();
  });

  // Resolves whether it sent a list (one that differs from the last).
  async function relist() {
    if (hidden) return false;
    if (listing) { again = true; return false; }
    let sent = false;
    listing = true;
    try {
      do {
        again = false;
        const parsed = doc.readyState !== 'loading'; // a list of the whole document (read before the lists)
        const next = new MapCtor();
        const tools = [];
        for (const [id, src] of sources) {
          let list;
          try {
            list = await withTimeout(src.list(), SOURCE_LIST_TIMEOUT_MS);
          } catch {
            list = []; // this source is broken for now; the others still count
          }
          if (!isArray(list)) list = [];
          for (const d of list) {
            const pub = publicTool(d);
            if (!pub || next.has(pub.name)) continue; // first source wins
            next.set(pub.name, { descriptor: d, sourceId: id });
            tools.push(pub);
          }
        }
        const shown = tools.slice(0, MAX_REPORTED_TOOLS);
        const detail = stringify({ api: runtime().api, native: nativeAtStart, parsed, total: tools.length, tools: shown });
        if (detail !== lastDetail) {
          lastDetail = detail;
          send(detail);
          sent = true;
        }
      } while (again && !hidden);
    } catch { /* never break the page */ } finally {
      listing = false;
    }
    return sent;
  }

  function probe() {
    try {
      if (watch(runtime())) registry.changed();
    } catch { /* ignore */ }
  }

  const registry = freeze({
    changed() {
      if (timer !== null) clearT.call(window, timer);
      timer = later(() => { timer = null; relist(); }, DEBOUNCE_MS);
    },
    call: (name, args) => webmcpCall(name, args),
    report() {
      if (lastDetail === null) {
        registry.changed(); // nothing listed yet: the first list goes out when ready
        return;
      }
      send(lastDetail);
    },
  });

  try {
    defineProperty(window, KEY, { value: registry, writable: false, enumerable: false, configurable: false });
  } catch {
    return;
  }

  sources.set('webmcp', { list: webmcpList, call: webmcpCall });
  registry.changed();

  // The relay listens (again). Its first word, at document start, gets the
  // first list once the page had a moment to register (debounced: an empty
  // list now would be a change of its own). Once listed, it gets the list
  // looked up afresh — the service worker asks this of a new tab before
  // open_tab answers, and the browser lists <form toolname> late.
  listen.call(window, READY_EVENT, async () => {
    relayReady = true;
    if (lastDetail === null) {
      registry.changed();
      return;
    }
    if (timer !== null) { clearT.call(window, timer); timer = null; }
    if (!(await relist()) && lastDetail !== null) send(lastDetail);
  });

  // @mcp-b/global installs itself whenever its script runs: look again when
  // scripts arrive, at DOMContentLoaded, at load and a few times after.
  // At DOMContentLoaded and load the list goes out at once, not debounced: a
  // navigation's answer should find the new document's tools already there.
  const now = () => {
    if (timer !== null) { clearT.call(window, timer); timer = null; }
    relist();
  };
  listen.call(doc, 'DOMContentLoaded', () => { probe(); now(); });
  listen.call(window, 'load', () => {
    probe();
    now();
    for (const ms of PROBE_AFTER_LOAD_MS) later(probe, ms);
  });
  try {
    new MutationObserverCtor((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n.nodeName === 'SCRIPT') {
            listen.call(n, 'load', probe);
            later(probe, 0); // inline scripts ran already
          }
        }
      }
    }).observe(doc, { childList: true, subtree: true });
  } catch { /* ignore */ }
  probe();

  // The relay may already be there (injection order) or come later.
  try {
    dispatch.call(window, new CustomEventCtor(PING_EVENT));
  } catch { /* ignore */ }
})();
