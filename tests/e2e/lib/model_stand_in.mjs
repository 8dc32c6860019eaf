// A scripted stand-in for the Anthropic Messages API, to run the real Claude
// Code CLI with no network and no model (ANTHROPIC_BASE_URL points here): an
// HTTP server on 127.0.0.1 (ephemeral port) answering POST /v1/messages with
// the API's server-sent events (message_start, content_block_start/_delta/
// _stop with text_delta or input_json_delta, message_delta with stop_reason
// tool_use or end_turn, message_stop), or with one JSON message when the
// request does not ask for a stream; POST /v1/messages/count_tokens with a
// count; anything else 404, logged as unknown. Every request is logged,
// parsed, with its time. A test's script is the model: (request body, turn
// index) => reply, where reply is text, a list of blocks (text(), toolUse()),
// or {content, delayMs}. Requests that are not the agent's turns (title or
// topic generation, a "quota" probe, a haiku-model call: no tools, or a haiku
// model) are answered with a short text and not counted as turns.
//
// What Claude Code 2.1.332 really sends (read from logged requests, and from
// the MCP messages through lib/stdio_tap.mjs):
//
// * Every MCP tool is named mcp__<server>__<tool> (mcp__tabbridge__open_tab).
//   A tool the server pins (_meta["anthropic/alwaysLoad"]: true) and lists
//   from the start is in the request's `tools` with its schema, without
//   defer_loading, and named in no announcement. Every other MCP tool is
//   deferred: not in `tools`, only its name is announced. `tools` also holds
//   Claude Code's own tools, ToolSearch, and {name: "DeferredToolPlaceholder",
//   defer_loading: true}.
// * Announcements are messages of role "system" inside `messages` (the
//   mid-conversation-tool-changes beta), not user <system-reminder>s and not
//   body.system. The first request's messages[1] (role system, "# Environment
//   …") names the deferred tools there at start:
//     The following deferred tools are now available via ToolSearch. Their
//     schemas are NOT loaded — calling them directly will fail with
//     InputValidationError. Use ToolSearch with query "select:<name>[,<name>...]"
//     to load tool schemas before calling them:
//     CronCreate
//     …
//     mcp__tabbridge__connect_browser
//   one name a line, up to a blank line. When tools/list, fetched again after
//   notifications/tools/list_changed, differs, the next request built after
//   that fetch appends {role: "system", content: [{type: "text", text: …}]}
//   with, for new deferred tools, the same "The following deferred tools are
//   now available via ToolSearch. …:\n<name>\n<name>"; for tools gone: "The
//   following deferred tools are no longer available. Do not search for them
//   — ToolSearch will return no match:\n<name>\n\nThis is ambient context —
//   do not narrate it …"; for a new pinned tool: "The following tools just
//   became available and are ready to use:\n<name>" in the same text block,
//   followed by a block {type: "tool_addition", tool: {type:
//   "tool_reference", name}} (the tool then in `tools`, defer_loading: true).
//   A tool the model already loaded with ToolSearch is not announced again.
// * ToolSearch runs inside Claude Code, on its last fetched list: its
//   tool_result holds {type: "tool_reference", tool_name} blocks, then a text
//   block "Tool loaded."; from then on the tool is in `tools` with its schema
//   and defer_loading: true. A miss is the text "No matching deferred tools
//   found". A tool_use of a name Claude Code does not know is answered
//   is_error "<tool_use_error>Error: No such tool available: <name>
//   </tool_use_error>" (the call never reaches the server).
// * Claude Code builds the next request as soon as a call's answer arrives;
//   a list_changed sent with that answer shows in it only if Claude Code has
//   fetched tools/list again before. It does so 3-140 ms after the
//   notification, but at most about once a second per server: a change
//   within ~1 s of its last fetch is fetched only when that second is up
//   (measured 0.4-1 s late), both under 2026-07-28 and 2025-11-25.
// * With tabbridge it speaks 2026-07-28: server/discover (probe id
//   "server-discover-probe-1", then again with id 0), subscriptions/listen
//   {notifications: {toolsListChanged: true}} (id "listen:0"), and every
//   request carries _meta io.modelcontextprotocol/protocolVersion,
//   clientInfo {name: "claude-code"} and clientCapabilities (roots, elicitation).

import http from 'node:http';

/** A text block of a reply. */
export const text = (s) => ({ type: 'text', text: String(s) });

/** A tool_use block of a reply (id made up unless given). */
export const toolUse = (name, input = {}, id = undefined) => ({ type: 'tool_use', name, input, ...(id ? { id } : {}) });

/** Default test for a request that is not one of the agent's turns: no tools, or a haiku model. */
export function isSideRequest(body) {
  if (!body || typeof body !== 'object') return true;
  if (!Array.isArray(body.tools) || body.tools.length === 0) return true;
  return /haiku/i.test(String(body.model ?? ''));
}

// ---------------------------------------------------------------- the server

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

/** A reply (string, blocks, or {content, delayMs, stopReason}) as {blocks, delayMs, stopReason}. */
function normalizeReply(reply) {
  let content = reply;
  let delayMs = 0;
  let stopReason = null;
  if (reply && typeof reply === 'object' && !Array.isArray(reply) && !reply.type) {
    content = reply.content;
    delayMs = reply.delayMs ?? 0;
    stopReason = reply.stopReason ?? null;
  } else if (reply && typeof reply === 'object' && reply.type) {
    content = [reply];
  }
  if (content === undefined || content === null) content = '(the script has nothing more to say)';
  const blocks = (typeof content === 'string' ? [text(content)] : content).map((b) => (typeof b === 'string' ? text(b) : b));
  stopReason ??= blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  return { blocks, delayMs, stopReason };
}

const delay = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * Starts the stand-in. Options:
 *   script(body, turnIndex)  the model: returns (or resolves to) a reply; see the module comment
 *   delayMs                  default delay before each turn's answer (0: at once)
 *   isSide(body)             true for requests that are not the agent's turns (isSideRequest)
 *   sideText                 what side requests get
 * Returns {url, port, requests, turns, side, unknown, errors, close()}:
 *   requests  every request: {seq, at (Date.now()), method, path, search, headers, body, kind, turn?, reply?}
 *             kind: 'turn' | 'side' | 'count_tokens' | 'unknown'; reply: the blocks answered
 *   turns     the requests of kind 'turn', in order (turns[i].turn === i)
 *   errors    the script's exceptions (each answered as end_turn text so the CLI ends)
 */
export async function startModelStandIn({ script = () => 'OK', delayMs = 0, isSide = isSideRequest, sideText = 'OK' } = {}) {
  const requests = [];
  const errors = [];
  let turnCount = 0;
  let seq = 0;
  let msgSeq = 0;
  const unknownSeen = new Set();

  const answer = (res, body, { blocks, stopReason }) => {
    const id = `msg_standin_${++msgSeq}`;
    const model = body?.model ?? 'claude-stand-in';
    const withIds = blocks.map((b, i) =>
      b.type === 'tool_use' ? { type: 'tool_use', id: b.id ?? `toolu_standin_${msgSeq}_${i}`, name: b.name, input: b.input ?? {} } : b,
    );
    const inputTokens = Math.max(1, Math.ceil(JSON.stringify(body ?? '').length / 4));
    const usage = { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (body?.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${id}` });
      res.end(JSON.stringify({
        id, type: 'message', role: 'assistant', model, content: withIds, stop_reason: stopReason, stop_sequence: null,
        usage: { ...usage, output_tokens: 5 },
      }));
      return withIds;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': `req_${id}` });
    const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev('message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    });
    ev('ping', {});
    withIds.forEach((b, index) => {
      if (b.type === 'tool_use') {
        ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
        // In two pieces, as the API streams it: the client must join partial JSON.
        const json = JSON.stringify(b.input);
        const cut = Math.floor(json.length / 2);
        for (const part of cut > 0 ? [json.slice(0, cut), json.slice(cut)] : [json]) {
          ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
        }
      } else {
        ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
        ev('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
      }
      ev('content_block_stop', { index });
    });
    ev('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
    ev('message_stop', {});
    res.end();
    return withIds;
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const raw = await readBody(req);
    let body = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    const record = { seq: ++seq, at: Date.now(), method: req.method, path: url.pathname, search: url.search, headers: req.headers, body, kind: 'unknown' };
    requests.push(record);
    try {
      if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
        record.kind = 'count_tokens';
        const tokens = Math.max(1, Math.ceil(raw.length / 4));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: tokens }));
        return;
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/messages') {
        if (!unknownSeen.has(`${req.method} ${url.pathname}`)) {
          unknownSeen.add(`${req.method} ${url.pathname}`);
          process.stderr.write(`[model stand-in] no route for ${req.method} ${url.pathname}${url.search} (answered 404)\n`);
        }
        res.writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `the stand-in has no ${req.method} ${url.pathname}` } }));
        return;
      }
      if (isSide(body)) {
        record.kind = 'side';
        record.reply = answer(res, body, normalizeReply(sideText));
        return;
      }
      record.kind = 'turn';
      record.turn = turnCount++;
      let reply;
      try {
        reply = normalizeReply(await script(body, record.turn));
      } catch (err) {
        errors.push(err);
        reply = normalizeReply(`stand-in script error: ${err?.message ?? err}`);
      }
      await delay(reply.delayMs || delayMs);
      record.reply = answer(res, body, reply);
      record.answeredAt = Date.now();
    } catch (err) {
      errors.push(err);
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    errors,
    get turns() {
      return requests.filter((r) => r.kind === 'turn');
    },
    get side() {
      return requests.filter((r) => r.kind === 'side');
    },
    get unknown() {
      return requests.filter((r) => r.kind === 'unknown');
    },
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections?.();
    }),
  };
}

// --------------------------------------------- reading what Claude Code sent

/** The text of a message content (a string, or the text blocks of a list). */
function contentText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((b) => b?.type === 'text').map((b) => b.text).join('\n');
}

const ANNOUNCEMENT = /The following (deferred tools are now available via ToolSearch|tools just became available and are ready to use|deferred tools are no longer available|tools are no longer available)[^\n]*\n/g;
const TOOL_NAME = /^[A-Za-z0-9_.:-]+$/;

/** The announcements in one text: [{kind: 'deferred'|'ready'|'removed', names}], in order. */
export function announcementsInText(s) {
  const out = [];
  for (const m of String(s).matchAll(ANNOUNCEMENT)) {
    const names = [];
    for (const line of s.slice(m.index + m[0].length).split('\n')) {
      const name = line.trim();
      if (!TOOL_NAME.test(name)) break;
      names.push(name);
    }
    const kind = m[1].includes('no longer') ? 'removed' : m[1].startsWith('tools just') ? 'ready' : 'deferred';
    out.push({ kind, names });
  }
  return out;
}

/**
 * Every tool announcement in a request, in conversation order:
 * [{message (index in body.messages, -1 for body.system), role, kind, names}].
 * Read from the system messages (where Claude Code 2.1.332 puts them), and
 * from body.system and user <system-reminder> text too, for other versions.
 */
export function announcements(body) {
  const out = [];
  const sys = Array.isArray(body?.system) ? body.system.map((b) => b.text ?? '').join('\n') : String(body?.system ?? '');
  for (const a of announcementsInText(sys)) out.push({ message: -1, role: 'system', ...a });
  (body?.messages ?? []).forEach((m, i) => {
    if (m.role === 'assistant') return;
    for (const a of announcementsInText(contentText(m.content))) out.push({ message: i, role: m.role, ...a });
  });
  return out;
}

/** Announcements in messages from index `from` on (the ones new since a request of `from` messages). */
export function announcementsFrom(body, from) {
  return announcements(body).filter((a) => a.message >= from);
}

/**
 * The tool names the model was told exist, as of this request: every name
 * announced (deferred or ready), minus those announced as no longer
 * available later, plus the names in `tools`.
 */
export function announcedTools(body) {
  const names = new Set();
  for (const a of announcements(body)) {
    for (const n of a.names) (a.kind === 'removed' ? names.delete(n) : names.add(n));
  }
  for (const t of body?.tools ?? []) if (t.name !== 'DeferredToolPlaceholder') names.add(t.name);
  return names;
}

/** Names announced as no longer available anywhere in the request. */
export function removedTools(body) {
  return new Set(announcements(body).filter((a) => a.kind === 'removed').flatMap((a) => a.names));
}

/** Names of the tool_reference blocks (ToolSearch results, tool_addition) in the request's messages. */
export function referencedTools(body) {
  const names = new Set();
  const visit = (b) => {
    if (!b || typeof b !== 'object') return;
    if (b.type === 'tool_reference') names.add(b.tool_name ?? b.name);
    if (b.type === 'tool_addition') visit(b.tool);
    if (Array.isArray(b.content)) b.content.forEach(visit);
  };
  for (const m of body?.messages ?? []) if (Array.isArray(m.content)) m.content.forEach(visit);
  return names;
}

/**
 * Names the model can call in this request: in `tools` with their schema,
 * either not deferred or deferred and loaded (referenced by a ToolSearch
 * result or a tool_addition).
 */
export function callableTools(body) {
  const loaded = referencedTools(body);
  const removed = removedTools(body);
  return new Set((body?.tools ?? [])
    .filter((t) => t.name !== 'DeferredToolPlaceholder' && (!t.defer_loading || loaded.has(t.name)) && !removed.has(t.name))
    .map((t) => t.name));
}

/** The schema Claude Code sent for a tool (input_schema), or null. */
export function toolSchema(body, name) {
  return (body?.tools ?? []).find((t) => t.name === name)?.input_schema ?? null;
}

/** Every tool_use of the conversation: [{id, name, input, message}]. */
export function toolUses(body) {
  const out = [];
  (body?.messages ?? []).forEach((m, i) => {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) return;
    for (const b of m.content) if (b.type === 'tool_use') out.push({ id: b.id, name: b.name, input: b.input, message: i });
  });
  return out;
}

/** A tool_result block as {toolUseId, name, isError, text, references, message}. */
function resultOf(block, i, uses) {
  const content = block.content;
  const references = Array.isArray(content) ? content.filter((c) => c.type === 'tool_reference').map((c) => c.tool_name) : [];
  return {
    toolUseId: block.tool_use_id,
    name: uses.get(block.tool_use_id)?.name ?? null,
    input: uses.get(block.tool_use_id)?.input,
    isError: block.is_error === true,
    text: contentText(content),
    references,
    message: i,
  };
}

/** Every tool_result of the conversation, in order (see resultOf). */
export function toolResults(body) {
  const uses = new Map(toolUses(body).map((u) => [u.id, u]));
  const out = [];
  (body?.messages ?? []).forEach((m, i) => {
    if (m.role !== 'user' || !Array.isArray(m.content)) return;
    for (const b of m.content) if (b.type === 'tool_result') out.push(resultOf(b, i, uses));
  });
  return out;
}

/** The last tool_result of the request (what the model just got back), or null. */
export function lastToolResult(body) {
  return toolResults(body).at(-1) ?? null;
}

/**
 * The tool results that are failures the model would see: is_error results
 * ("No such tool available", a tool's own error) and ToolSearch misses ("No
 * matching deferred tools found"), as [{name, text}].
 */
export function toolFailures(body) {
  return toolResults(body)
    .filter((r) => r.isError || (r.name === 'ToolSearch' && /No matching deferred tools/i.test(r.text)))
    .map((r) => ({ name: r.name, input: r.input, text: r.text.slice(0, 500) }));
}

/**
 * The first turn that carries the answer of the n-th call (from 0) of
 * `name`: the request the model saw right after that call.
 */
export function turnAfterCall(turns, name, nth = 0) {
  return turns.find((t) => toolResults(t.body).filter((r) => r.name === name).length > nth) ?? null;
}

/** Bytes of a request body as sent (JSON). */
export const requestBytes = (body) => Buffer.byteLength(JSON.stringify(body ?? null));
