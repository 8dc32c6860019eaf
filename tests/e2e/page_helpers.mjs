// Helpers of the page-tool suites (page_*.test.mjs): one browser per file,
// tabs opened through tabbridge and observed *independently* of it through
// the browser's DevTools endpoint (CDP Runtime.evaluate on the tab's target),
// plus parsers for what the page tools answer (snapshot refs, cursors, images,
// JSON entries).
//
// The result shapes are the contract of docs/protocol.md "Page tools": every
// result has `content` (text and/or image blocks), maybe `structuredContent`;
// failures are `isError: true` with an actionable message. Where the contract
// leaves a shape open (where a cursor or a value sits), the helpers accept the
// obvious spellings and say in their failure messages what they looked for.

import assert from 'node:assert/strict';
import zlib from 'node:zlib';

import { unfold } from '../../extension/tools/shared/snapshot_unfold.js';
import {
  CALL_TIMEOUT_MS,
  cdpEvaluate,
  closedPort,
  devToolsPages,
  devToolsPort,
  devToolsTargets,
  errorText,
  launchBrowser,
  openTabFromBrowser,
  targetWsUrl,
  waitFor,
} from './harness.mjs';

/** The page tools a focused tab offers with default caps (common/tool_catalog.cpp). */
// generated: page-tool-names
export const PAGE_TOOLS_DEFAULT = Object.freeze(['snapshot', 'click', 'type', 'fill_form', 'select_option', 'hover', 'scroll', 'press_key', 'navigate', 'wait_for', 'screenshot', 'read_page', 'console_logs', 'network_errors', 'handle_dialog']);
export const TABBRIDGE_TOOLS = Object.freeze(['connect_browser', 'list_tabs', 'open_tab', 'focus_tab', 'close_tab', 'list_webmcp_tools', 'call_webmcp_tool', 'ask_person', 'run_steps', 'snapshot', 'click', 'type', 'fill_form', 'select_option', 'hover', 'scroll', 'press_key', 'navigate', 'wait_for', 'screenshot', 'read_page', 'console_logs', 'network_errors', 'handle_dialog', 'evaluate', 'drag', 'upload_file', 'emulate', 'download_file', 'save_pdf', 'network_requests', 'network_request']);
// end generated (codegen/generate.mjs, from common/tool_catalog.cpp)

/**
 * Largest width and height of an image a page tool may answer. The tool
 * catalog leaves the number to the implementation; 2000 px per edge is what
 * the suite holds it to (a model is billed per pixel and downsizes beyond).
 */
export const IMAGE_MAX_EDGE = Number(process.env.TABBRIDGE_E2E_MAX_IMAGE_EDGE || 2000);

const brief = (v, max = 400) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s && s.length > max ? `${s.slice(0, max)}…` : s;
};

// ---------------------------------------------------------------------------
// Reading results

/** All text blocks of a result, joined by newlines. */
export function allText(result) {
  return (result?.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** Total UTF-8 bytes of a result's text blocks (what the model reads). */
export function textBytes(result) {
  return (result?.content ?? [])
    .filter((c) => c.type === 'text')
    .reduce((n, c) => n + Buffer.byteLength(c.text, 'utf8'), 0);
}

function isJsonOfStructured(text, sc) {
  if (!sc) return false;
  try {
    assert.deepEqual(JSON.parse(text), sc);
    return true;
  } catch {
    return false;
  }
}

function longestString(value) {
  let best = '';
  const walk = (v) => {
    if (typeof v === 'string') {
      if (v.length > best.length) best = v;
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return best;
}

/**
 * The human-readable body of a result (a snapshot, markdown, text): the text
 * blocks that are not merely the JSON of structuredContent; when there are
 * none, the longest string inside structuredContent.
 */
export function bodyText(result) {
  const sc = result?.structuredContent;
  const texts = (result?.content ?? [])
    .filter((c) => c.type === 'text' && !isJsonOfStructured(c.text, sc))
    .map((c) => c.text);
  if (texts.length) return texts.join('\n');
  return longestString(sc);
}

const REF_RE = /\[ref=([A-Za-z0-9_:.-]+)\]/;

/** Every ref (`[ref=…]`) in a snapshot text, in order (a folded run's items read as the lines they stand for). */
export function refsIn(text) {
  return [...unfold(text).join('\n').matchAll(new RegExp(REF_RE.source, 'g'))].map((m) => m[1]);
}

/**
 * The ref of the first snapshot line (a folded run's items read in full,
 * snapshot_unfold.js) that matches `label` (a string the line
 * includes, or a RegExp) and carries `[ref=…]`. Fails with the snapshot.
 */
export function refOf(snapshot, label) {
  const matches = (line) => (label instanceof RegExp ? label.test(line) : line.includes(label));
  for (const line of unfold(snapshot)) {
    if (!matches(line)) continue;
    const m = REF_RE.exec(line);
    if (m) return m[1];
  }
  assert.fail(`no snapshot line matching ${label} carries a [ref=…]; snapshot:\n${brief(snapshot, 4000)}`);
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A RegExp for the snapshot line of an element: its role (a word, or an
 * alternation such as 'textbox|spinbutton') then, later on the same line, its
 * accessible name, not followed by a digit (so "Item 1" does not match
 * "Item 10"). Any quoting of the name is accepted.
 */
export function el(role, name) {
  return new RegExp(`\\b(?:${role})\\b.*?${escapeRe(name)}(?![0-9])`);
}

const CSS_CURSORS = new Set(['pointer', 'default', 'auto', 'text', 'move', 'grab', 'none', 'help', 'wait', 'crosshair']);

/**
 * The pagination cursor of a result, or null when this was the last page:
 * structuredContent.cursor / nextCursor, else a `cursor "X"`, `cursor: X` or
 * `cursor=X` in the text (CSS cursor values such as `[cursor=pointer]` are
 * not cursors).
 */
export function nextCursor(result) {
  const sc = result?.structuredContent;
  for (const key of ['nextCursor', 'cursor']) {
    if (sc && typeof sc[key] === 'string' && sc[key]) return sc[key];
  }
  if (sc && ('nextCursor' in sc || 'cursor' in sc)) return null;
  const text = allText(result);
  const quoted = /\b(?:next[ _-]?)?cursor\b["']?\s*(?:[:=]\s*)?["'`]([^"'`\s]+)["'`]/gi;
  const bare = /\b(?:next[ _-]?)?cursor\b["']?\s*[:=]\s*([A-Za-z0-9_\-.:+/=]+)/gi;
  for (const re of [quoted, bare]) {
    for (const m of text.matchAll(re)) {
      if (!CSS_CURSORS.has(m[1].toLowerCase())) return m[1];
    }
  }
  return null;
}

/** The value an `evaluate` answered: structuredContent.value/result, else the JSON of its text. */
export function evalValue(result) {
  const sc = result?.structuredContent;
  if (sc && typeof sc === 'object') {
    if ('value' in sc) return sc.value;
    if ('result' in sc) return sc.result;
  }
  const text = bodyText(result).trim();
  try {
    return JSON.parse(text);
  } catch {
    assert.fail(`evaluate answered no structuredContent.value and its text is not JSON: ${brief(result, 800)}`);
  }
}

/**
 * The entries of a console_logs / network_errors result in format json:
 * structuredContent.entries (or logs/errors/requests), else a JSON text block
 * holding an array or {entries}.
 */
export function entriesOf(result) {
  const pick = (o) => {
    if (Array.isArray(o)) return o;
    if (o && typeof o === 'object') {
      for (const key of ['entries', 'logs', 'messages', 'errors', 'requests']) if (Array.isArray(o[key])) return o[key];
    }
    return null;
  };
  const fromSc = pick(result?.structuredContent);
  if (fromSc) return fromSc;
  for (const c of result?.content ?? []) {
    if (c.type !== 'text') continue;
    try {
      const got = pick(JSON.parse(c.text));
      if (got) return got;
    } catch {
      /* not JSON */
    }
  }
  assert.fail(`no JSON entries (structuredContent.entries or a JSON text block) in ${brief(result, 1200)}`);
}

/** The image blocks of a result. */
export function imagesOf(result) {
  return (result?.content ?? []).filter((c) => c.type === 'image');
}

// ---------------------------------------------------------------------------
// Images: dimensions from the header, and a small PNG decoder

/** {format, width, height} from a PNG or JPEG header; throws on anything else. */
export function imageInfo(buf) {
  if (buf.length >= 24 && buf.readUInt32BE(0) === 0x89504e47 && buf.readUInt32BE(4) === 0x0d0a1a0a) {
    assert.equal(buf.toString('latin1', 12, 16), 'IHDR', 'PNG: first chunk is not IHDR');
    return { format: 'png', width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  }
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8) {
    let i = 2;
    while (i + 9 < buf.length) {
      if (buf[i] !== 0xff) {
        i++;
        continue;
      }
      const marker = buf[i + 1];
      if (marker === 0xff) {
        i++;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      const len = buf.readUInt16BE(i + 2);
      const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isSof) return { format: 'jpeg', height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
      i += 2 + len;
    }
    throw new Error('JPEG without a SOF marker');
  }
  throw new Error(`not a PNG or JPEG (starts ${buf.subarray(0, 8).toString('hex')})`);
}

/** Decodes an 8-bit, non-interlaced RGB/RGBA/grey PNG: {width, height, pixel(x, y) → [r, g, b]}. */
export function decodePng(buf) {
  const { width, height } = imageInfo(buf);
  const depth = buf[24];
  const colorType = buf[25];
  const interlace = buf[28];
  assert.equal(depth, 8, `PNG bit depth ${depth} (decoder handles 8)`);
  assert.equal(interlace, 0, 'interlaced PNG (decoder handles non-interlaced)');
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colorType];
  assert.ok(channels, `PNG color type ${colorType} (decoder handles grey, RGB, grey+alpha, RGBA)`);
  const idat = [];
  for (let off = 8; off + 8 <= buf.length; ) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    if (type === 'IDAT') idat.push(buf.subarray(off + 8, off + 8 + len));
    if (type === 'IEND') break;
    off += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = v & 0xff;
    }
  }
  return {
    width,
    height,
    pixel(x, y) {
      const i = y * stride + x * channels;
      return channels < 3 ? [out[i], out[i], out[i]] : [out[i], out[i + 1], out[i + 2]];
    },
  };
}

// ---------------------------------------------------------------------------
// One browser per test file, tabs observed through DevTools

let uniq = 0;

/** `url` with a query parameter that makes it unique in the browser (to find its DevTools target). */
function uniqueUrl(url) {
  const u = new URL(url);
  u.searchParams.set('tbv', `${process.pid}-${++uniq}`);
  return u.toString();
}

const withoutHash = (url) => url.split('#')[0];

/** A tab opened through tabbridge, with its DevTools target for ground truth. */
export class PageTab {
  constructor(env, tabId, url, target) {
    this.env = env;
    this.tabId = tabId;
    this.url = url;
    this.targetId = target.id;
    this.wsUrl = targetWsUrl(env.port, target);
  }

  /** Runtime.evaluate in the tab's current document (same target across navigations). */
  eval(expression) {
    return cdpEvaluate(this.wsUrl, expression);
  }

  /** Polls eval(expression) until truthy; returns the value. */
  waitEval(expression, what = expression, { timeoutMs } = {}) {
    return waitFor(() => this.eval(expression), { what: `page: ${what}`, timeoutMs });
  }

  /**
   * Waits until the tab's document is the one opened (not the initial
   * about:blank, which is 'complete' at once) and finished loading.
   */
  ready() {
    return this.waitEval(
      `location.href.split('#')[0] === ${JSON.stringify(withoutHash(this.url))} && document.readyState === 'complete'`,
      `${this.url} to finish loading`,
    );
  }

  /** The DevTools target of an out-of-process iframe whose URL includes `urlPart`. */
  async frameTarget(urlPart) {
    return waitFor(
      async () => (await devToolsTargets(this.env.port)).find((t) => t.type === 'iframe' && t.url.includes(urlPart)),
      { what: `an out-of-process iframe target with url including ${urlPart} (is the frame cross-site?)` },
    );
  }

  /** Runtime.evaluate in an out-of-process iframe. */
  async frameEval(urlPart, expression) {
    return cdpEvaluate(targetWsUrl(this.env.port, await this.frameTarget(urlPart)), expression);
  }

  /** Closes the tab through tabbridge (ignores a tab already gone). */
  async close() {
    await this.env.s.call('close_tab', { tabId: this.tabId }).catch(() => {});
  }
}

/**
 * Launches one browser for a test file: fixture server(s), a session (with
 * `caps` passed as `--caps`), the DevTools endpoint, and an about:blank tab
 * that keeps a window open whatever the tests close. Call in before().
 *   peer: a second fixture server, reached as http://localhost:<port> — another
 *         site, so its iframes are out of process; the first server's pages
 *         name it {{PEER_ORIGIN}}.
 *   display: an X display (lib/xvfb.mjs startXvfb): the browser runs headful on it.
 */
export async function startPageBrowser(h, {
  name, caps = null, peer = false, extraBrowserArgs = [], env: extraEnv = {}, shimArgs = [], roots = null, policy, elicitation = null,
  display = null,
} = {}) {
  const env = { h };
  env.web = await h.fixtureServer();
  if (peer) {
    env.peer = await h.fixtureServer();
    env.web.vars.PEER_ORIGIN = env.peer.localhostOrigin;
    env.peer.vars.PEER_ORIGIN = env.web.origin;
  }
  env.closedPort = await closedPort();
  env.web.vars.CLOSED_PORT = env.closedPort;
  env.s = await h.startSession({
    name,
    extraBrowserArgs: ['--remote-debugging-port=0', ...extraBrowserArgs],
    shimArgs: [...(caps ? ['--caps', caps] : []), ...shimArgs],
    isolatedHome: true,
    env: extraEnv,
    roots,
    policy,
    elicitation,
    display,
  });
  const connected = await launchBrowser(env.s);
  env.browser = connected.browser; // connect_browser's {name, version, pid, headless}
  env.browserPid = connected.browser.pid;
  env.port = await devToolsPort({ profileDir: env.s.profileDir, browserPid: env.browserPid });
  await openTabFromBrowser(env.port, 'about:blank');

  /**
   * Opens `pathOrUrl` (a path of the first server, or a URL) in a new tab
   * through open_tab, made unique with a query parameter; waits for its
   * DevTools target and its load. With `t` (a test context) the tab is closed
   * after the test. The tab's `opened` is open_tab's result.
   */
  env.open = async (pathOrUrl, { focus = true, t, waitLoad = true } = {}) => {
    const url = uniqueUrl(pathOrUrl.startsWith('http') ? pathOrUrl : env.web.url(pathOrUrl));
    const opened = await env.s.call('open_tab', { url, focus });
    assert.notEqual(opened.isError, true, `open_tab ${url} failed: ${errorText(opened)}`);
    const r = opened.structuredContent;
    // A single-page app may put a route in the hash at once (`#/`): the target is found without it.
    const target = await waitFor(async () => (await devToolsPages(env.port)).find((p) => withoutHash(p.url) === withoutHash(url)), {
      what: `the DevTools target of ${url}`,
    });
    const tab = new PageTab(env, r.tab.id, url, target);
    tab.opened = opened; // open_tab's whole result (what the model read)
    t?.after(() => tab.close());
    if (waitLoad) await tab.ready();
    return tab;
  };

  /** A snapshot of the focused tab: [body text, result]. */
  env.snapshot = async (args = {}) => {
    const r = await env.s.pageOk('snapshot', args);
    return [bodyText(r), r];
  };
  return env;
}

/** Asserts that a page tool failed with a message matching every regex in `patterns`. */
export function assertErrorMatches(result, patterns, what) {
  const text = errorText(result);
  for (const re of patterns) assert.match(text, re, `${what}: error message ${JSON.stringify(text)} should match ${re}`);
}

export { CALL_TIMEOUT_MS };
