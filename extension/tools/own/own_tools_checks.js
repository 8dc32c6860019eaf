// The page's own tools, checked again in the worker (the page may forge what
// it reports or returns; docs/protocol.md "The page's own tools"): the tool
// list a page reported (cleanTools) and what one of its tools answered, made a
// CallToolResult within the limits (normalise), and which path runs a call
// (callRoute). Pure: no chrome, no state.

import { OwnToolLimits, cut } from '../../worker/protocol.js';
import { cutEnd } from '../../worker/text_cut.js';

const SOURCES = new Set(['native', 'polyfill', 'legacy', 'declarative', 'form', 'results', 'buttons']);
const MAX_IMAGE_BYTES = 10 * 1024 * 1024; // all images of one answer (base64 chars)
// Image types a model API takes (Claude refuses others, e.g. SVG).
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export const isFormSource = (source) => source === 'form' || source === 'declarative';

// Where a call goes: the source in the document's latest list (`list`: the
// tab's {documentId, tools}), else the one the call names. A <form toolname>
// is ours to run ('declarative') until the browser lists it itself; a call
// made in between names the old source, while the form is by then the
// browser's WebMCP tool and ours no longer describes it.
export function callRoute(list, documentId, name, source) {
  if (list?.documentId !== documentId) return source;
  return list.tools.find((t) => t.name === name)?.source ?? source;
}

// owntool.call's arguments in the model's order: the host sends them as JSON
// text too (argumentsText), since its JSON objects sort their keys; the
// object it also sends is what an older host sent alone.
export function argumentsOf(params) {
  if (typeof params?.argumentsText === 'string') {
    try {
      const args = JSON.parse(params.argumentsText);
      if (args && typeof args === 'object' && !Array.isArray(args)) return args;
    } catch { /* the object, then */ }
  }
  return params?.arguments ?? {};
}

// The page said it; check it again here (the page may have forged the event).
export function cleanTools(raw) {
  if (!Array.isArray(raw)) return [];
  const out = [];
  const seen = new Set();
  for (const t of raw) {
    if (out.length >= OwnToolLimits.MAX_REPORTED_TOOLS) break;
    if (!t || typeof t !== 'object' || typeof t.name !== 'string' || !t.name) continue;
    if (t.name.length > OwnToolLimits.MAX_NAME_CHARS || seen.has(t.name)) continue;
    seen.add(t.name);
    const tool = {
      name: t.name,
      source: SOURCES.has(t.source) ? t.source : 'native',
      description: typeof t.description === 'string' ? cut(t.description, OwnToolLimits.MAX_DESCRIPTION_CHARS) : '',
      inputSchema: { type: 'object', properties: {} },
      readOnly: typeof t.readOnly === 'boolean' ? t.readOnly : null,
    };
    const schema = t.inputSchema;
    const text = schema && typeof schema === 'object' && !Array.isArray(schema) ? JSON.stringify(schema) : null;
    if (t.schemaDropped === true) {
      tool.schemaDropped = true; // the page side dropped it already
    } else if (text && new TextEncoder().encode(text).length <= OwnToolLimits.MAX_SCHEMA_BYTES && (schema.type ?? 'object') === 'object') {
      tool.inputSchema = { type: 'object', ...schema };
    } else if (text) {
      tool.schemaDropped = true;
    }
    out.push(tool);
  }
  return out;
}

// What execute() returned → a CallToolResult: a CallToolResult as is (text and
// image blocks), a string as a text block, anything else as JSON text. Native
// WebMCP already hands a string: the JSON text of an object, a string as is.
// Whether the page's answer ({kind, value}, own_tools.js runInPage) is none at all.
export const returnedNothing = (r) =>
  r.kind === 'undefined' || (r.kind === 'string' && r.value === 'undefined') || (r.kind === 'json' && r.value === 'null');

export function normalise(name, r) {
  if (returnedNothing(r)) {
    return { content: [{ type: 'text', text: `the page's tool ${name} returned nothing` }] };
  }
  let value = r.value;
  let text = r.value;
  try {
    value = JSON.parse(r.value);
  } catch {
    value = r.value; // plain text
  }
  if (value && typeof value === 'object' && Array.isArray(value.content)) return fromCallToolResult(name, value);
  if (r.kind === 'json' && typeof value === 'string') text = value;
  return { content: [{ type: 'text', text: capText(text, OwnToolLimits.MAX_RESULT_TEXT_CHARS) }] };
}

export function capText(text, max) {
  if (text.length <= max) return text;
  const note = `… (cut at ${max} characters)`;
  return `${text.slice(0, cutEnd(text, Math.max(0, max - note.length)))}${note}`;
}

function fromCallToolResult(name, value) {
  const content = [];
  let textLeft = OwnToolLimits.MAX_RESULT_TEXT_CHARS;
  let imageLeft = MAX_IMAGE_BYTES;
  let dropped = 0;
  let badImages = 0;
  for (const b of value.content) {
    if (b?.type === 'text' && typeof b.text === 'string') {
      if (textLeft <= 0) { dropped++; continue; }
      const text = capText(b.text, textLeft);
      textLeft -= b.text.length;
      content.push({ type: 'text', text });
    } else if (b?.type === 'image') {
      const data = typeof b.data === 'string' ? b.data : '';
      if (!IMAGE_TYPES.has(b.mimeType) || data.length % 4 !== 0) { badImages++; continue; }
      if (data.length > imageLeft) { dropped++; continue; }
      if (!BASE64.test(data)) { badImages++; continue; }
      imageLeft -= data.length;
      content.push({ type: 'image', data, mimeType: b.mimeType });
    } else {
      dropped++;
    }
  }
  if (!content.length && value.structuredContent !== undefined) {
    let json = '';
    try { json = JSON.stringify(value.structuredContent); } catch { /* ignore */ }
    if (json) content.push({ type: 'text', text: capText(json, OwnToolLimits.MAX_RESULT_TEXT_CHARS) });
  }
  if (badImages) {
    content.push({ type: 'text', text: `(${badImages} image${badImages === 1 ? '' : 's'} left out: only base64 PNG, JPEG, GIF or WebP are passed on)` });
  }
  if (dropped) content.push({ type: 'text', text: `(${dropped} more part${dropped === 1 ? '' : 's'} of the answer left out)` });
  if (!content.length) content.push({ type: 'text', text: `the page's tool ${name} returned an empty answer` });
  const out = { content };
  if (value.isError === true) out.isError = true;
  return out;
}
