// Console capture, page side (MAIN world, document_start, every frame of every
// http(s) page; see manifest.json). Wraps console.log/info/warn/error/debug
// (and trace, assert, dir, table), listens for uncaught errors and unhandled
// promise rejections, and hands each entry — {level, text, timestamp, url,
// stack?} — to console_relay.js (ISOLATED world) as a CustomEvent whose detail
// is a JSON string (objects do not cross worlds; strings do). Everything the
// page could later replace (JSON, Date, CustomEvent, dispatchEvent) is captured
// up front. A classic script, not a module: content scripts cannot be modules.

(() => {
  const INSTALLED = Symbol.for('tabbridge.console.v1');
  if (window[INSTALLED]) return; // injected twice (manifest + programmatic after an update)
  try {
    Object.defineProperty(window, INSTALLED, { value: true });
  } catch {
    return;
  }

  const ENTRY_EVENT = 'tabbridge:console-entry:v1';
  const READY_EVENT = 'tabbridge:console-ready:v1';
  const PING_EVENT = 'tabbridge:console-ping:v1';

  const MAX_TEXT = 10000; // per entry
  const MAX_ARG = 4000; // per argument
  const MAX_STACK = 4000;
  const MAX_QUEUE = 500; // entries held until the relay is there

  const stringify = JSON.stringify;
  const now = Date.now;
  const CustomEventCtor = CustomEvent;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const listen = EventTarget.prototype.addEventListener;
  const toStringTag = Object.prototype.toString;
  const isArray = Array.isArray;
  const ErrorCtor = Error;
  const NodeCtor = typeof Node === 'function' ? Node : null;
  const ErrorEventCtor = typeof ErrorEvent === 'function' ? ErrorEvent : null;
  const ownKeys = Object.keys;
  const fnToString = Function.prototype.toString;
  const loc = window.location;

  let relayReady = false;
  const queue = [];

  function emit(entry) {
    if (!relayReady) {
      if (queue.length < MAX_QUEUE) queue.push(entry);
      return;
    }
    try {
      dispatch.call(window, new CustomEventCtor(ENTRY_EVENT, { detail: stringify(entry) }));
    } catch { /* never break the page */ }
  }

  listen.call(window, READY_EVENT, () => {
    relayReady = true;
    while (queue.length) emit(queue.shift());
  });

  // --- values to text -------------------------------------------------------

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

  function isError(v) {
    return v instanceof ErrorCtor || toStringTag.call(v) === '[object Error]' ||
      (typeof v?.message === 'string' && typeof v?.stack === 'string' && typeof v?.name === 'string');
  }

  function describeNode(n) {
    if (n.nodeType === 1) {
      let s = `<${String(n.localName || n.nodeName).toLowerCase()}`;
      if (n.id) s += ` id="${n.id}"`;
      const cls = typeof n.className === 'string' ? n.className.trim() : '';
      if (cls) s += ` class="${cut(cls, 80)}"`;
      return `${s}>`;
    }
    if (n.nodeType === 3) return `#text "${cut(String(n.data), 80)}"`;
    if (n.nodeType === 9) return '#document';
    return String(n.nodeName);
  }

  // JSON-like rendering with depth, size and cycle limits; getters may throw.
  function render(v, depth, seen) {
    switch (typeof v) {
      case 'string': return depth === 0 ? v : stringify(v);
      case 'number': case 'boolean': case 'undefined': return String(v);
      case 'bigint': return `${v}n`;
      case 'symbol': return v.toString();
      case 'function': return `ƒ ${v.name || 'anonymous'}()`;
      default: break;
    }
    if (v === null) return 'null';
    try {
      if (isError(v)) return `${v.name || 'Error'}: ${v.message}`;
      if (NodeCtor && v instanceof NodeCtor) return describeNode(v);
      if (v === window) return '[object Window]';
      if (seen.includes(v)) return '[Circular]';
      if (depth >= 3) return isArray(v) ? `Array(${v.length})` : '{…}';
      seen.push(v);
      let out;
      if (isArray(v)) {
        const items = [];
        for (let i = 0; i < v.length && i < 100; i++) items.push(render(v[i], depth + 1, seen));
        if (v.length > 100) items.push(`… ${v.length - 100} more`);
        out = `[${items.join(', ')}]`;
      } else if (v instanceof Map) {
        const items = [];
        for (const [k, x] of v) {
          if (items.length >= 50) { items.push('…'); break; }
          items.push(`${render(k, depth + 1, seen)} => ${render(x, depth + 1, seen)}`);
        }
        out = `Map(${v.size}) {${items.join(', ')}}`;
      } else if (v instanceof Set) {
        const items = [];
        for (const x of v) {
          if (items.length >= 50) { items.push('…'); break; }
          items.push(render(x, depth + 1, seen));
        }
        out = `Set(${v.size}) {${items.join(', ')}}`;
      } else {
        const keys = ownKeys(v);
        const items = [];
        for (const k of keys.slice(0, 50)) {
          let x;
          try { x = v[k]; } catch { x = '[getter threw]'; }
          items.push(`${stringify(k)}: ${render(x, depth + 1, seen)}`);
        }
        if (keys.length > 50) items.push(`… ${keys.length - 50} more`);
        const tag = toStringTag.call(v).slice(8, -1);
        out = `${tag !== 'Object' ? `${tag} ` : ''}{${items.join(', ')}}`;
      }
      seen.pop();
      return out;
    } catch {
      return '[unserializable]';
    }
  }

  const argText = (v) => cut(render(v, 0, []), MAX_ARG);

  // console's own format specifiers in a leading string: %s %d %i %f %o %O %j %c %%
  function formatArgs(args) {
    const parts = [];
    let rest = args;
    if (typeof args[0] === 'string' && args[0].includes('%')) {
      let i = 1;
      const head = args[0].replace(/%([sdifoOjc%])/g, (m, k) => {
        if (k === '%') return '%';
        if (i >= args.length) return m;
        const a = args[i++];
        if (k === 'c') return '';
        if (k === 'd' || k === 'i') return String(parseInt(a, 10));
        if (k === 'f') return String(parseFloat(a));
        return argText(a);
      });
      parts.push(head);
      rest = args.slice(i);
    } else if (args.length) {
      parts.push(argText(args[0]));
      rest = args.slice(1);
    }
    for (const a of rest) parts.push(argText(a));
    return cut(parts.join(' '), MAX_TEXT);
  }

  // Our own frames (chrome-extension://…) are not the page's business.
  function cleanStack(stack, dropFirstLine) {
    if (typeof stack !== 'string') return undefined;
    let lines = stack.split('\n');
    if (dropFirstLine) lines = lines.slice(1);
    lines = lines.filter((l) => !l.includes('chrome-extension://'));
    const s = lines.join('\n').trim();
    return s ? cut(s, MAX_STACK) : undefined;
  }

  function callerStack() {
    try {
      return cleanStack(new ErrorCtor().stack, true);
    } catch {
      return undefined;
    }
  }

  let busy = false; // an argument's getter/toJSON may log: no recursion
  function record(level, text, stack) {
    const entry = { level, text, timestamp: now(), url: loc.href };
    if (stack) entry.stack = stack;
    emit(entry);
  }

  // --- console wrappers -------------------------------------------------------

  const LEVEL_OF = { log: 'log', info: 'info', warn: 'warn', error: 'error', debug: 'debug', trace: 'debug', dir: 'log', table: 'log' };
  const con = window.console;
  for (const method of Object.keys(LEVEL_OF)) {
    const original = con?.[method];
    if (typeof original !== 'function') continue;
    const level = LEVEL_OF[method];
    const wrapper = {
      [method](...args) {
        if (!busy) {
          busy = true;
          try {
            let stack;
            if (level === 'error' || method === 'trace') {
              const err = args.find((a) => a !== null && typeof a === 'object' && isError(a));
              stack = err ? cleanStack(err.stack, false) : callerStack();
            }
            record(level, formatArgs(args), stack);
          } catch { /* never break the page */ } finally {
            busy = false;
          }
        }
        return original.apply(this, args);
      },
    }[method];
    try {
      Object.defineProperty(wrapper, 'toString', { value: () => fnToString.call(original) });
      con[method] = wrapper;
    } catch { /* frozen console */ }
  }

  const originalAssert = con?.assert;
  if (typeof originalAssert === 'function') {
    con.assert = function assert(condition, ...args) {
      if (!condition && !busy) {
        busy = true;
        try {
          record('error', `Assertion failed${args.length ? `: ${formatArgs(args)}` : ''}`, callerStack());
        } catch { /* never break the page */ } finally {
          busy = false;
        }
      }
      return originalAssert.call(this, condition, ...args);
    };
  }

  // --- uncaught errors ----------------------------------------------------------

  listen.call(window, 'error', (e) => {
    if (!ErrorEventCtor || !(e instanceof ErrorEventCtor)) return; // resource load errors: see network_errors
    try {
      let message = String(e.message || 'Uncaught error');
      const stack = cleanStack(e.error?.stack, false) ??
        (e.filename ? `at ${e.filename}:${e.lineno}:${e.colno}` : undefined);
      if (!/^uncaught/i.test(message)) message = `Uncaught ${message}`;
      record('error', cut(message, MAX_TEXT), stack);
    } catch { /* never break the page */ }
  }, true);

  listen.call(window, 'unhandledrejection', (e) => {
    try {
      const reason = e.reason;
      const stack = reason !== null && typeof reason === 'object' && isError(reason) ? cleanStack(reason.stack, false) : undefined;
      record('error', cut(`Uncaught (in promise) ${argText(reason)}`, MAX_TEXT), stack);
    } catch { /* never break the page */ }
  }, true);

  // The relay may already be there (injection order) or come later.
  try {
    dispatch.call(window, new CustomEventCtor(PING_EVENT));
  } catch { /* ignore */ }
})();
