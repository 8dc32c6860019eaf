// The browser's DevTools endpoint, to act and look "from the browser side",
// bypassing tabbridge: its port (DevToolsActivePort), the HTTP endpoint
// (/json/list, /json/close/<id>, PUT /json/new) and CDP over a WebSocket
// (the `ws` package) to one target — CdpConnection, cdpEvaluate.

import fs from 'node:fs';
import path from 'node:path';

import WebSocket from 'ws';

import { brief } from './asserts.mjs';
import { CALL_TIMEOUT_MS, EVENT_TIMEOUT_MS } from './config.mjs';
import { procCmdline } from './processes.mjs';
import { waitFor } from './wait.mjs';

/** The --user-data-dir of a running browser, read from its command line. */
function userDataDirOf(pid) {
  const cmd = procCmdline(pid) ?? [];
  const arg = cmd.find((a) => a.startsWith('--user-data-dir='));
  return arg ? arg.slice('--user-data-dir='.length) : null;
}

/**
 * Port of the browser's DevTools endpoint. The browser must have been
 * launched with --remote-debugging-port=0; Chrome writes the chosen port as
 * the first line of <user-data-dir>/DevToolsActivePort.
 */
export async function devToolsPort({ profileDir, browserPid }) {
  const dirs = [];
  const fromCmd = browserPid ? userDataDirOf(browserPid) : null;
  if (fromCmd) dirs.push(fromCmd);
  if (profileDir && !dirs.includes(profileDir)) dirs.push(profileDir);
  return waitFor(
    () => {
      for (const d of dirs) {
        try {
          const port = Number(fs.readFileSync(path.join(d, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
          if (port > 0) return port;
        } catch {
          /* not written yet */
        }
      }
      return 0;
    },
    { timeoutMs: EVENT_TIMEOUT_MS, what: `DevToolsActivePort in ${dirs.join(' or ')} (was the browser launched with --remote-debugging-port=0?)` },
  );
}

async function devToolsRequest(port, pathAndQuery, method = 'GET') {
  const res = await fetch(`http://127.0.0.1:${port}${pathAndQuery}`, { method });
  const text = await res.text();
  if (!res.ok) throw new Error(`DevTools ${method} ${pathAndQuery} -> HTTP ${res.status}: ${text}`);
  return text;
}

/** Page targets of the browser (GET /json/list). */
export async function devToolsPages(port) {
  return JSON.parse(await devToolsRequest(port, '/json/list')).filter((t) => t.type === 'page');
}

/** Closes the page whose URL is exactly `url`, through DevTools (not tabbridge). */
export async function closeTabFromBrowser(port, url) {
  const target = await waitFor(async () => (await devToolsPages(port)).find((t) => t.url === url), {
    what: `a DevTools page target with url ${url}`,
  });
  await devToolsRequest(port, `/json/close/${target.id}`);
  await waitFor(async () => !(await devToolsPages(port)).some((t) => t.id === target.id), {
    what: `DevTools target ${target.id} (${url}) to disappear`,
  });
  return target.id;
}

/** Opens a page through DevTools (PUT /json/new), as a user would. */
export async function openTabFromBrowser(port, url) {
  const target = JSON.parse(await devToolsRequest(port, `/json/new?${url}`, 'PUT'));
  return target.id;
}

/** Every target of the browser (pages, out-of-process iframes, workers…). */
export async function devToolsTargets(port) {
  return JSON.parse(await devToolsRequest(port, '/json/list'));
}

/** Closes a DevTools target by id (as the user closing the tab). */
export async function closeTargetFromBrowser(port, targetId) {
  await devToolsRequest(port, `/json/close/${targetId}`);
  await waitFor(async () => !(await devToolsPages(port)).some((t) => t.id === targetId), {
    what: `DevTools target ${targetId} to disappear`,
  });
}

/**
 * A CDP connection to one DevTools target (`ws://127.0.0.1:<port>/devtools/…`).
 * `send(method, params)` resolves with the result or rejects with the error;
 * every request has a deadline. Events are ignored (we subscribe to none).
 */
export class CdpConnection {
  static async open(wsUrl, { timeoutMs = CALL_TIMEOUT_MS } = {}) {
    const c = new CdpConnection(timeoutMs);
    await c._connect(wsUrl);
    return c;
  }

  constructor(timeoutMs) {
    this.timeoutMs = timeoutMs;
    this.nextId = 1;
    this.pending = new Map();
    this.closed = false;
    this.ws = null;
  }

  _connect(wsUrl) {
    return new Promise((resolve, reject) => {
      let upgraded = false;
      let settled = false;
      const settle = (err) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      // No Origin header (the endpoint refuses origins it was not told to
      // allow), no compression, no cap on a message's size (screenshots).
      const ws = new WebSocket(wsUrl, { perMessageDeflate: false, maxPayload: 0 });
      this.ws = ws;
      const timer = setTimeout(() => {
        settle(new Error(`CDP: no WebSocket handshake from ${wsUrl} within ${this.timeoutMs} ms`));
        ws.terminate();
      }, this.timeoutMs);
      ws.on('unexpected-response', (req, res) => {
        settle(new Error(`CDP: ${wsUrl} refused the WebSocket upgrade: HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`));
        ws.terminate();
      });
      ws.on('open', () => {
        upgraded = true;
        settle();
      });
      ws.on('message', (data, isBinary) => this._onMessage(data, isBinary));
      const fail = (why) => {
        this.closed = true;
        for (const { reject: rej, timer: t } of this.pending.values()) {
          clearTimeout(t);
          rej(new Error(`CDP connection closed (${why})`));
        }
        this.pending.clear();
        if (!upgraded) settle(new Error(`CDP: cannot connect to ${wsUrl}: ${why}`));
      };
      ws.on('error', (err) => fail(err.message));
      ws.on('close', () => fail('socket closed'));
    });
  }

  _onMessage(data, isBinary) {
    if (isBinary) return;
    let msg;
    try {
      msg = JSON.parse(data.toString('utf8'));
    } catch {
      return;
    }
    const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
    if (!p) return; // an event: we subscribe to none
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.error) p.reject(new Error(`CDP ${p.method}: ${msg.error.message} (${msg.error.code})`));
    else p.resolve(msg.result);
  }

  send(method, params = {}) {
    if (this.closed) return Promise.reject(new Error(`CDP ${method}: connection closed`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`CDP ${method}: no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer, method });
      this.ws.send(JSON.stringify({ id, method, params }), (err) => {
        if (!err || !this.pending.has(id)) return;
        this.pending.delete(id);
        clearTimeout(timer);
        reject(new Error(`CDP ${method}: connection closed (${err.message})`));
      });
    });
  }

  /** Runtime.evaluate in the target's main world; awaits promises; returns the value (JSON). */
  async evaluate(expression) {
    const r = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw new Error(`CDP evaluate threw: ${d.exception?.description ?? d.text} (expression: ${brief(expression, 200)})`);
    }
    return r.result.value;
  }

  /** Sends a close frame and drops the connection at once; pending requests fail. */
  close() {
    this.closed = true;
    try {
      if (this.ws.readyState === WebSocket.OPEN) this.ws.close();
    } catch {
      /* gone */
    }
    this.ws.terminate();
  }
}

/** The WebSocket URL of a DevTools target. */
export function targetWsUrl(port, target) {
  return target.webSocketDebuggerUrl || `ws://127.0.0.1:${port}/devtools/page/${target.id}`;
}

/** One Runtime.evaluate on a target, over a short-lived CDP connection. */
export async function cdpEvaluate(wsUrl, expression, opts) {
  const c = await CdpConnection.open(wsUrl, opts);
  try {
    return await c.evaluate(expression);
  } finally {
    c.close();
  }
}

/** The URL of our extension's service worker (background.js) as a DevTools target. */
export const EXTENSION_WORKER = /^chrome-extension:\/\/[a-p]{32}\/background\.js$/;

/** Our extension's service-worker target, once one runs. */
export function extensionWorker(port) {
  return waitFor(
    async () => (await devToolsTargets(port)).find((t) => t.type === 'service_worker' && EXTENSION_WORKER.test(t.url)),
    { what: "the extension's service-worker target" },
  );
}

/** Runtime.evaluate in the extension's service worker (whichever instance runs now). */
export async function workerEval(port, expression) {
  return cdpEvaluate(targetWsUrl(port, await extensionWorker(port)), expression);
}
