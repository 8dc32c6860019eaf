// Owns the native-messaging port to the tabbridge host: connects at start-up,
// reconnects with back-off after every disconnect (Chrome re-spawns the host),
// says `hello` first on every port, dispatches host requests to registered
// handlers and sends events. Since Chrome 105 an open native port keeps the MV3
// service worker alive; the watchdog alarm revives a worker that died anyway.

import { Deadlines, ErrorCode, Event, Method, NATIVE_HOST_NAME, Notification, PAGE_PREFIX, RpcError } from './protocol.js';
import { PAGE_TOOLS } from './tool_catalog.js';
import { ChunkAssembler } from './chunk_assembler.js';
import { wellFormed } from './well_formed.js';

const BACKOFF_START_MS = 200;
const BACKOFF_CAP_MS = 5000;
const HEALTHY_MS = 5000; // a port that lived this long resets the back-off
const WATCHDOG_ALARM = 'tabbridge-watchdog';
const WATCHDOG_PERIOD_MIN = 0.5; // Chrome's minimum alarm period
// The host answers the popup's requests at once; this only bounds a stuck port.
const REQUEST_TIMEOUT_MS = 5000;

// ping answers at the transport level: it proves the port and the loop work.
const handlers = new Map([[Method.PING, () => ({})]]);
let buildHello = null; // async () => hello params, given to start()
let conn = null; // the open Connection, if any
let retryTimer = null;
let backoffMs = BACKOFF_START_MS;
export let firstConnectAt = null; // epoch ms of the first connectNative (hello's timing)

// fn(params, {signal, deadline, requestId}) may be async; its return value is
// the result (undefined means {}). Throw RpcError for a specific code; any
// other throw answers BROWSER_ERROR with its message. signal aborts on
// `cancel`, port loss or at the deadline (reason: a TimeoutError) — a handler
// checks it before every effect, so a call the host gave up on does not act
// afterwards; deadline (epoch ms) is when the answer must be sent: the host's
// params.deadlineMs less Deadlines.ANSWER_MARGIN_MS (Infinity without one);
// requestId is the host's id of the request (for page.progress events).
export function registerHandler(method, fn) {
  if (handlers.has(method)) throw new Error(`tabbridge: ${method} already has a handler`);
  // A page tool exists once, in common/tool_catalog.cpp (tool_catalog.js is generated from it).
  if (method.startsWith(PAGE_PREFIX) && !Object.hasOwn(PAGE_TOOLS, method.slice(PAGE_PREFIX.length))) {
    throw new Error(`tabbridge: ${method} is not a page tool of common/tool_catalog.cpp`);
  }
  handlers.set(method, fn);
}

export const hasHandler = (method) => handlers.has(method);

// fn(params) for the host's notification `method` (CHUNK and CANCEL are the
// port's own); it must not throw.
const notificationHandlers = new Map();
export function registerNotification(method, fn) {
  notificationHandlers.set(method, fn);
}

// fn() runs after every hello, for state that is not in hello (owntools.changed);
// its events go out on the new port.
const connectedListeners = [];
export function onConnected(fn) {
  connectedListeners.push(fn);
}

// fn(reason) after a port closed (the badge clears; the popup says so).
const disconnectedListeners = [];
export function onDisconnected(fn) {
  disconnectedListeners.push(fn);
}

// Whether a port is open and its hello sent (the host serves requests then).
export const isConnected = () => conn?.helloed === true;

// Events while no port is open are dropped: the next hello carries the state.
export function sendEvent(method, params) {
  conn?.send({ jsonrpc: '2.0', method, params });
}

// A request to the host (the popup's: docs/protocol.md "The popup"); resolves
// with its result, rejects with an RpcError (the host's, or BROWSER_ERROR
// when no port is open, the port closes first, or no answer in timeoutMs).
export function requestHost(method, params, { timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  if (!conn) return Promise.reject(new RpcError(ErrorCode.BROWSER_ERROR, 'not connected to the tabbridge host'));
  return conn.request(method, params, timeoutMs);
}

// Must run synchronously at the service worker's top level (listeners).
export function start(helloBuilder) {
  buildHello = helloBuilder;
  chrome.runtime.onStartup.addListener(ensureConnected); // wakes the worker with the browser
  chrome.alarms.onAlarm.addListener(({ name }) => {
    if (name === WATCHDOG_ALARM) ensureConnected();
  });
  chrome.alarms.get(WATCHDOG_ALARM).then(
    (alarm) => alarm ?? chrome.alarms.create(WATCHDOG_ALARM, { periodInMinutes: WATCHDOG_PERIOD_MIN }));
  ensureConnected();
}

function ensureConnected() {
  if (!conn && !retryTimer) connect();
}

function connect() {
  retryTimer = null;
  firstConnectAt ??= Date.now();
  try {
    conn = new Connection(chrome.runtime.connectNative(NATIVE_HOST_NAME));
  } catch (e) {
    // A throw here must not escape: at top level it would fail the worker.
    console.info(`tabbridge: connectNative failed: ${e.message}`);
    scheduleReconnect(0);
  }
}

function onClosed(closed, reason, livedMs) {
  if (conn !== closed) return;
  conn = null;
  console.info(`tabbridge: port closed (${reason})`);
  for (const fn of disconnectedListeners) {
    try {
      fn(reason);
    } catch (e) {
      console.info(`tabbridge: onDisconnected listener failed: ${e.message}`);
    }
  }
  scheduleReconnect(livedMs);
}

function scheduleReconnect(livedMs) {
  if (livedMs >= HEALTHY_MS) backoffMs = BACKOFF_START_MS;
  console.debug(`tabbridge: reconnecting in ${backoffMs} ms`);
  retryTimer = setTimeout(connect, backoffMs);
  backoffMs = Math.min(backoffMs * 2, BACKOFF_CAP_MS);
}

// A handler gets a moment after its signal fired to answer in its own words;
// then the request is answered for it (the page may be hung in a script, where
// nothing the handler waits on ever settles). Whatever the handler still does
// afterwards sees the aborted signal and acts no more.
const OWN_ANSWER_GRACE_MS = 200;
function answerByDeadline(run, timeUp, method, budget) {
  let timer;
  const fallback = new Promise((_, reject) => {
    const fire = () => {
      timer = setTimeout(() => reject(new RpcError(ErrorCode.BROWSER_ERROR,
        `${method.replace(/^page\./, '')} did not finish within ${Math.round(budget / 100) / 10} s: the page is not ` +
        'responding (a script stuck in a loop, or a long task) — nothing more will be done for this call; ' +
        'if it stays hung, close_tab it and open_tab its URL again')), OWN_ANSWER_GRACE_MS);
    };
    if (timeUp.aborted) fire();
    else timeUp.addEventListener('abort', fire, { once: true });
  });
  run.catch(() => {}); // may settle after the fallback answered
  return Promise.race([run, fallback]).finally(() => clearTimeout(timer));
}

const toError = (e) => ({
  code: e instanceof RpcError ? e.code : ErrorCode.BROWSER_ERROR,
  message: String(e?.message ?? e),
  ...(e instanceof RpcError && e.data !== undefined ? { data: e.data } : {}),
});

// One port's life. Requests, chunks and cancels belong to the port they came
// on: an answer never goes to a later host that did not ask.
class Connection {
  #port;
  #openedAt = Date.now();
  #closed = false;
  #chunks = new ChunkAssembler();
  #inflight = new Map(); // request id -> AbortController
  #asked = new Map(); // our requests to the host: id -> {resolve, reject, timer}
  #nextId = 1;
  helloed = false; // hello sent: the host serves requests
  #helloSent;
  #ready = new Promise((resolve) => { this.#helloSent = resolve; }); // hello goes first

  constructor(port) {
    this.#port = port;
    port.onMessage.addListener((msg) => this.#receive(msg));
    // Reading lastError also keeps Chrome from logging it as unchecked.
    port.onDisconnect.addListener(() => this.#close(chrome.runtime.lastError?.message ?? 'disconnected'));
    this.#greet();
  }

  // Queued behind hello; promise callbacks keep the order of the calls.
  send(msg) {
    this.#ready.then(() => this.#post(msg)).catch((e) => console.info(`tabbridge: send failed: ${e.message}`));
  }

  async #greet() {
    try {
      const params = await buildHello();
      if (this.#closed) return;
      this.#port.postMessage(wellFormed({ jsonrpc: '2.0', method: Event.HELLO, params }));
      console.info('tabbridge: connected, hello sent');
      this.helloed = true;
      this.#helloSent();
      for (const fn of connectedListeners) {
        try {
          fn();
        } catch (e) {
          console.info(`tabbridge: onConnected listener failed: ${e.message}`);
        }
      }
    } catch (e) {
      this.#close(`hello failed: ${e.message}`);
    }
  }

  // Everything to the host goes out here or as hello, well-formed (well_formed.js).
  #post(msg) {
    if (!this.#closed) this.#port.postMessage(wellFormed(msg));
  }

  request(method, params, timeoutMs) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#asked.delete(id);
        reject(new RpcError(ErrorCode.BROWSER_ERROR, `the host did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#asked.set(id, { resolve, reject, timer });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  // An answer to one of our requests.
  #answered(msg) {
    const asked = this.#asked.get(msg.id);
    if (!asked) return;
    this.#asked.delete(msg.id);
    clearTimeout(asked.timer);
    if (msg.error) asked.reject(new RpcError(msg.error.code, String(msg.error.message ?? 'error'), msg.error.data));
    else asked.resolve(msg.result);
  }

  #receive(msg) {
    if (msg !== null && typeof msg === 'object' && msg.method === undefined && msg.id !== undefined) {
      this.#answered(msg);
    } else if (msg === null || typeof msg !== 'object' || typeof msg.method !== 'string') {
      console.debug('tabbridge: ignoring a frame that is neither request nor notification');
    } else if (msg.id !== undefined) {
      this.#handle(msg);
    } else if (msg.method === Notification.CHUNK) {
      const text = this.#chunks.push(msg.params);
      if (text !== null) this.#receiveText(text);
    } else if (msg.method === Notification.CANCEL) {
      this.#inflight.get(msg.params?.id)?.abort();
    } else if (notificationHandlers.has(msg.method)) {
      try {
        notificationHandlers.get(msg.method)(msg.params ?? {});
      } catch (e) {
        console.info(`tabbridge: ${msg.method} failed: ${e.message}`);
      }
    } else {
      console.debug(`tabbridge: ignoring notification ${msg.method}`);
    }
  }

  #receiveText(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      console.info(`tabbridge: reassembled message is not JSON: ${e.message}`);
      return;
    }
    this.#receive(msg);
  }

  async #handle({ id, method, params }) {
    const handler = handlers.get(method);
    if (!handler) {
      this.#reply(id, { error: { code: ErrorCode.METHOD_NOT_FOUND, message: `unknown method ${method}` } });
      return;
    }
    const { deadlineMs, ...args } = params && typeof params === 'object' ? params : {};
    const abort = new AbortController(); // cancel or port loss: no answer
    this.#inflight.set(id, abort);
    const budget = Number.isFinite(deadlineMs) && deadlineMs > 0 ? deadlineMs - Deadlines.ANSWER_MARGIN_MS : null;
    const deadline = budget === null ? Infinity : Date.now() + Math.max(0, budget);
    const timeUp = budget === null ? null : AbortSignal.timeout(Math.max(0, budget));
    const signal = timeUp ? AbortSignal.any([abort.signal, timeUp]) : abort.signal;
    let body;
    try {
      const run = Promise.resolve().then(() => handler(args, { signal, deadline, requestId: id }));
      body = { result: (await (timeUp ? answerByDeadline(run, timeUp, method, budget) : run)) ?? {} };
    } catch (e) {
      body = { error: toError(e) };
    } finally {
      this.#inflight.delete(id);
    }
    // Cancelled or port gone: the host has already failed this request.
    if (!abort.signal.aborted) this.#reply(id, body);
  }

  // Exactly one answer: a result Chrome cannot serialize becomes an error.
  async #reply(id, body) {
    await this.#ready;
    try {
      this.#post({ jsonrpc: '2.0', id, ...body });
    } catch (e) {
      this.send({ jsonrpc: '2.0', id, error: toError(e) });
    }
  }

  #close(reason) {
    if (this.#closed) return;
    this.#closed = true;
    for (const abort of this.#inflight.values()) abort.abort();
    for (const { reject, timer } of this.#asked.values()) {
      clearTimeout(timer);
      reject(new RpcError(ErrorCode.BROWSER_ERROR, `the connection to the tabbridge host closed (${reason})`));
    }
    this.#asked.clear();
    this.#port.disconnect();
    onClosed(this, reason, Date.now() - this.#openedAt);
  }
}
