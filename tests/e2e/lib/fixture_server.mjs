// The fixture HTTP server (127.0.0.1 only, ephemeral port): tests/e2e/fixtures
// plus the routes tests drive (login, status codes, redirects, downloads, a
// strict CSP, responses held until the test releases them, form results),
// with a record of every request; and closedPort(), a port nothing listens on.

import fsp from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

import { FIXTURES_DIR, NODE_MODULES_DIR } from './config.mjs';
import { apiEcho, openApiDocument } from './openapi_fixture.mjs';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.jsx': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
};

/**
 * The parts of tests/e2e/node_modules the server hands out, each a folder
 * (ending in /) or a file: real libraries and apps for the real-widget and
 * real-app tests. Nothing else there (todomvc's own server dependencies, the
 * SDKs) is served.
 */
const SERVED_MODULES = Object.freeze([
  '@mcp-b/global/',
  'dropzone/',
  'sortablejs/',
  'todomvc/examples/react/',
  'todomvc/examples/angularjs/',
  'todomvc/examples/vanillajs/',
  'todomvc/learn.json', // the apps' common script fetches it for their side bar
  'swagger-ui-dist/',
]);

/** [file, root it must stay in] for a /node_modules/ path, or null when it is not served. */
function servedModuleFile(rel) {
  if (!/^[\w@./-]+$/.test(rel) || rel.split('/').some((part) => part === '..' || part === '.')) return null;
  const entry = SERVED_MODULES.find((e) => (e.endsWith('/') ? rel.startsWith(e) && rel.length > e.length : rel === e));
  if (!entry) return null;
  const file = path.join(NODE_MODULES_DIR, rel);
  return [file, entry.endsWith('/') ? path.join(NODE_MODULES_DIR, entry.slice(0, -1)) : path.dirname(file)];
}

/** Longest a held response (/hold, /slow.html) waits for release() before answering anyway. */
export const HOLD_MAX_MS = 10_000;

/**
 * The bytes /download/<name> serves: deterministic per name, 100,003 bytes
 * (not a round number, so a truncated or padded file shows).
 */
export function downloadBytes(name) {
  let seed = 0;
  for (const ch of name) seed = (seed * 31 + ch.charCodeAt(0)) >>> 0;
  const out = Buffer.alloc(100_003);
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    out[i] = seed >>> 24;
  }
  return out;
}

/** The credentials POST /login accepts. */
export const LOGIN = { user: 'alice', password: 'wonderland' };

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

function simplePage(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

function readBytes(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.alloc(0)));
  });
}

const readBody = async (req) => (await readBytes(req)).toString('utf8');

// The file parts of a multipart/form-data body: [{field, filename, type, bytes}].
function multipartFiles(contentType, body) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? '');
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const files = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(at + delimiter.length + 2, next - 2); // past CRLF, before CRLF
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('utf8');
    const filename = /filename="([^"]*)"/.exec(head);
    if (filename) {
      files.push({
        field: /name="([^"]*)"/.exec(head)?.[1] ?? '',
        filename: filename[1],
        type: /content-type:\s*(\S+)/i.exec(head)?.[1] ?? '',
        bytes: part.subarray(split + 4),
      });
    }
    at = next;
  }
  return files;
}

/**
 * Serves tests/e2e/fixtures/ on 127.0.0.1:<ephemeral>, plus these routes:
 *
 *   /                    the shared bench fixture (fixtures/bench-fixture.html); /link/N: a page per link
 *   POST /login          user/password form: right → 303 /welcome?user=…, wrong → 303 /login.html?error=1
 *   /welcome?user=U      "Welcome, U!" (title "Welcome")
 *   /status/<code>       an HTML page answered with that HTTP status (title "Status <code>")
 *   /redirect?to=<path>  302 to <path>
 *   POST /slow-redirect?to=<url>&ms=N  303 to <url> after N ms (default 10500): a result page that
 *                        answers later than a press's wait (issue 42's R1); record.body holds what was sent
 *   /download/<name>     downloadBytes(name), Content-Disposition: attachment
 *   POST /echo           JSON {method, contentType, body}: what it was sent, back
 *   POST /upload         multipart/form-data: its files are recorded (record.files), 200 "Uploaded N"
 *   /csp/<file>          fixtures/<file> with Content-Security-Policy: script-src 'self'
 *   /hold?key=K          answers "released K" once release(K) is called (or after HOLD_MAX_MS)
 *   /slow.html?key=K     sends the page's head at once and the rest once release(K) is called
 *   /no-content          204 No Content (a navigation there leaves the page where it was)
 *   /interrupt?to=P&key=K  sends a head whose script navigates to P while the rest is held until release(K)
 *   /search, /book, /subscribe  result pages of the form fixtures (flights, declarative-form,
 *                        late-form); what they received: queriesOf('/search')
 *   /node_modules/<package>/<file>  files of SERVED_MODULES from tests/e2e/node_modules
 *                        (read-only): @mcp-b/global, dropzone, sortablejs, three TodoMVC builds, swagger-ui-dist
 *   /openapi.json        openApiDocument(): our own large OpenAPI 3 document (220 operations)
 *   /api/<anything>      any method: JSON apiEcho() of the request (what swagger-ui's "Try it out" reaches);
 *                        record.body holds what was sent
 *
 * In .html files `{{NAME}}` is replaced by `vars.NAME` (vars is mutable: set
 * PEER_ORIGIN once the other server is up); unknown names are left alone.
 * Every request is recorded in `requests` ({method, path, query, body, time}).
 */
export async function startFixtureServer({ vars = {} } = {}) {
  const requests = [];
  const released = new Set();
  const holders = new Map(); // key -> [resolve]
  const waitRelease = (key) =>
    released.has(key)
      ? Promise.resolve('released')
      : new Promise((resolve) => {
          const timer = setTimeout(() => resolve('timeout'), HOLD_MAX_MS);
          const list = holders.get(key) ?? [];
          list.push((how) => {
            clearTimeout(timer);
            resolve(how);
          });
          holders.set(key, list);
        });
  const release = (key) => {
    released.add(key);
    for (const fn of holders.get(key) ?? []) fn('released');
    holders.delete(key);
  };
  const templated = (text) => text.replace(/\{\{(\w+)\}\}/g, (m, name) => (name in vars ? String(vars[name]) : m));

  const sendFile = async (req, res, file, extraHeaders = {}, root = FIXTURES_DIR) => {
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    let body;
    try {
      body = await fsp.readFile(file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(simplePage('Not found', '<h1>not found</h1>'));
      return;
    }
    if (path.extname(file) === '.html') body = Buffer.from(templated(body.toString('utf8')));
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      ...extraHeaders,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const { pathname, searchParams } = url;
    const record = { method: req.method, path: pathname, query: Object.fromEntries(searchParams), body: '', time: Date.now() };
    requests.push(record);
    const html = (status, title, body, headers = {}) =>
      res
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers })
        .end(req.method === 'HEAD' ? undefined : simplePage(title, body));

    if (req.method === 'POST' && pathname === '/login') {
      record.body = await readBody(req);
      const form = new URLSearchParams(record.body);
      record.form = Object.fromEntries(form);
      if (form.get('user') === LOGIN.user && form.get('password') === LOGIN.password) {
        res.writeHead(303, { location: `/welcome?user=${encodeURIComponent(form.get('user'))}` }).end();
      } else {
        res.writeHead(303, { location: '/login.html?error=1' }).end();
      }
      return;
    }
    if (req.method === 'POST' && pathname === '/echo') {
      record.body = await readBody(req);
      const echo = JSON.stringify({ method: req.method, contentType: req.headers['content-type'] ?? '', body: record.body });
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(echo);
      return;
    }
    if (req.method === 'POST' && pathname === '/slow-redirect') {
      record.body = await readBody(req);
      const ms = Number(searchParams.get('ms') ?? 10500);
      // The answer's lateness is the attack (not a synchronisation): the
      // press's own wait is over before the redirect comes.
      await new Promise((resolve) => setTimeout(resolve, Number.isFinite(ms) ? ms : 10500));
      res.writeHead(303, { location: searchParams.get('to') ?? '/a.html', 'cache-control': 'no-store' }).end();
      return;
    }
    if (req.method === 'POST' && pathname === '/upload') {
      record.files = multipartFiles(req.headers['content-type'], await readBytes(req));
      return html(200, 'Uploaded', `<h1 id="uploaded">Uploaded ${record.files.length}</h1>`);
    }
    if (pathname.startsWith('/api/')) {
      record.body = await readBody(req);
      const echo = apiEcho({ method: req.method, pathname, query: record.query, body: record.body, authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(echo));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (pathname === '/') return sendFile(req, res, path.join(FIXTURES_DIR, 'bench-fixture.html'));
    let m;
    if ((m = /^\/link\/(\d+)$/.exec(pathname))) {
      return html(200, `Link ${m[1]}`, `<h1>Link page ${m[1]}</h1><p><a href="/">back</a></p>`);
    }
    if (pathname === '/welcome') {
      const user = searchParams.get('user') ?? 'stranger';
      return html(200, 'Welcome', `<h1 id="welcome">Welcome, ${escapeHtml(user)}!</h1><p>You are signed in.</p>`);
    }
    if ((m = /^\/status\/(\d{3})$/.exec(pathname))) {
      const code = Number(m[1]);
      return html(code, `Status ${code}`, `<h1>HTTP ${code}</h1><p id="status-page">This page answers ${code}.</p>`);
    }
    if (pathname === '/redirect') {
      res.writeHead(302, { location: searchParams.get('to') ?? '/a.html', 'cache-control': 'no-store' }).end();
      return;
    }
    if ((m = /^\/download\/([\w.-]+)$/.exec(pathname))) {
      const bytes = downloadBytes(m[1]);
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': bytes.length,
        'content-disposition': `attachment; filename="${m[1]}"`,
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : bytes);
      return;
    }
    if ((m = /^\/csp\/([\w.-]+)$/.exec(pathname))) {
      return sendFile(req, res, path.join(FIXTURES_DIR, m[1]), { 'content-security-policy': "script-src 'self'" });
    }
    if (pathname === '/hold') {
      const key = searchParams.get('key') ?? '';
      const how = await waitRelease(key);
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store', 'access-control-allow-origin': '*' });
      res.end(how === 'released' ? `released ${key}` : `timeout ${key}`);
      return;
    }
    if (pathname === '/search') {
      const q = (k) => escapeHtml(searchParams.get(k) ?? '');
      return html(200, `Flights ${searchParams.get('from') ?? ''} to ${searchParams.get('to') ?? ''}`,
        `<h1 id="results">Flights from ${q('from')} to ${q('to')} on ${q('depart')}</h1><p>${q('passengers')} passenger(s), ${q('cabin')}</p>`);
    }
    if (pathname === '/book') {
      return html(200, 'Table booked', `<h1 id="booked">Table booked for ${escapeHtml(searchParams.get('name') ?? '')}</h1>`);
    }
    if (pathname === '/subscribe') {
      return html(200, 'Subscribed', `<h1 id="subscribed">Subscribed ${escapeHtml(searchParams.get('email') ?? '')}</h1>`);
    }
    if (pathname.startsWith('/node_modules/')) {
      const served = servedModuleFile(pathname.slice('/node_modules/'.length));
      if (!served) return html(404, 'Not found', '<h1>not served</h1>');
      return sendFile(req, res, served[0], {}, served[1]);
    }
    if (pathname === '/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(openApiDocument()));
      return;
    }
    if (pathname === '/no-content') {
      res.writeHead(204, { 'cache-control': 'no-store' }).end();
      return;
    }
    if (pathname === '/interrupt') {
      const key = searchParams.get('key') ?? '';
      const to = searchParams.get('to') ?? '/a.html';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      // The page moves on by itself while it is still loading (its load event never came).
      res.write(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Interrupting page</title>` +
        `<script>location.href = ${JSON.stringify(to)};</script></head><body><p>leaving</p>${' '.repeat(2048)}\n`);
      const how = await waitRelease(key);
      res.end(`<p>end (${how})</p></body></html>`);
      return;
    }
    if (pathname === '/slow.html') {
      const key = searchParams.get('key') ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      // Enough bytes that the browser commits and parses the head at once.
      res.write(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slow page</title></head><body><p id="start">start</p>${' '.repeat(2048)}\n`);
      const how = await waitRelease(key);
      res.end(`<p id="end">end (${how})</p></body></html>`);
      return;
    }
    let file;
    try {
      file = path.join(FIXTURES_DIR, path.normalize(decodeURIComponent(pathname)));
    } catch {
      res.writeHead(400).end();
      return;
    }
    return sendFile(req, res, file);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    /** The same server named by "localhost": another site than 127.0.0.1 (an out-of-process iframe). */
    localhostOrigin: `http://localhost:${port}`,
    vars,
    requests,
    /** The query of every GET to `pathname` so far, oldest first. */
    queriesOf: (pathname) => requests.filter((r) => r.method === 'GET' && r.path === pathname).map((r) => r.query),
    release,
    url: (p) => `${origin}${p.startsWith('/') ? p : `/${p}`}`,
    close: () =>
      new Promise((resolve) => {
        for (const key of [...holders.keys()]) release(key);
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** A 127.0.0.1 port nothing listens on (bound, then closed). */
export async function closedPort() {
  const srv = http.createServer();
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  return port;
}
