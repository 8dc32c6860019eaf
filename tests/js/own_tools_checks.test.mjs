// extension/tools/own/own_tools_checks.js: what a page reports about its own tools, and
// what those tools answer, is checked again in the worker (the page may forge
// either): names, sources, descriptions and schemas within the limits; an
// answer made a CallToolResult of text and allowed images only.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { OwnToolLimits } from '../../extension/worker/protocol.js';
import { argumentsOf, callRoute, capText, cleanTools, isFormSource, normalise } from '../../extension/tools/own/own_tools_checks.js';
import { errorResult } from '../../extension/tools/stack/results.js';

describe('cleanTools', () => {
  it('keeps a well-formed tool, schema and readOnly included', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    assert.deepEqual(cleanTools([{ name: 'search', source: 'polyfill', description: 'Find', inputSchema: schema, readOnly: true }]), [
      { name: 'search', source: 'polyfill', description: 'Find', inputSchema: schema, readOnly: true },
    ]);
  });

  it('keeps the sources our isolated world reports: form, declarative, results, buttons', () => {
    const raw = ['form', 'declarative', 'results', 'buttons'].map((source) => ({ name: source, source }));
    assert.deepEqual(cleanTools(raw).map((t) => t.source), ['form', 'declarative', 'results', 'buttons']);
  });

  it('fills in what is missing or not of its type', () => {
    assert.deepEqual(cleanTools([{ name: 't', source: 'evil', description: 7, readOnly: 'yes' }]), [
      { name: 't', source: 'native', description: '', inputSchema: { type: 'object', properties: {} }, readOnly: null },
    ]);
    assert.deepEqual(cleanTools([{ name: 't', inputSchema: { properties: {} } }])[0].inputSchema, { type: 'object', properties: {} });
  });

  it('is empty for anything but an array', () => {
    for (const raw of [undefined, null, 'x', { name: 'a' }]) assert.deepEqual(cleanTools(raw), []);
  });

  it('drops unnamed, over-long and duplicate names', () => {
    const long = 'n'.repeat(OwnToolLimits.MAX_NAME_CHARS + 1);
    const names = cleanTools([null, 'a', { name: '' }, { name: 5 }, { name: long }, { name: 'a' }, { name: 'b' }, { name: 'a' }]).map((t) => t.name);
    assert.deepEqual(names, ['a', 'b']);
  });

  it('keeps at most MAX_REPORTED_TOOLS tools', () => {
    const raw = Array.from({ length: OwnToolLimits.MAX_REPORTED_TOOLS + 10 }, (_, i) => ({ name: `t${i}` }));
    assert.equal(cleanTools(raw).length, OwnToolLimits.MAX_REPORTED_TOOLS);
  });

  it('cuts a long description', () => {
    const d = cleanTools([{ name: 't', description: 'd'.repeat(OwnToolLimits.MAX_DESCRIPTION_CHARS * 2) }])[0].description;
    assert.equal(d.length, OwnToolLimits.MAX_DESCRIPTION_CHARS);
    assert.ok(d.endsWith('…'));
  });

  it('drops a schema that is too big, not an object schema, or not an object; says so', () => {
    const big = { type: 'object', description: 'x'.repeat(OwnToolLimits.MAX_SCHEMA_BYTES) };
    for (const inputSchema of [big, { type: 'string' }, [1, 2]]) {
      const [t] = cleanTools([{ name: 't', inputSchema }]);
      assert.deepEqual(t.inputSchema, { type: 'object', properties: {} });
      assert.equal(t.schemaDropped, Array.isArray(inputSchema) ? undefined : true, JSON.stringify(inputSchema).slice(0, 40));
    }
    const [kept] = cleanTools([{ name: 't', inputSchema: { type: 'object' }, schemaDropped: true }]);
    assert.equal(kept.schemaDropped, true, 'the page side had dropped it');
  });

  it('counts schema size in UTF-8 bytes', () => {
    const n = Math.floor(OwnToolLimits.MAX_SCHEMA_BYTES / 3); // 3 bytes each, under the limit in characters
    const [t] = cleanTools([{ name: 't', inputSchema: { type: 'object', description: '€'.repeat(n) } }]);
    assert.equal(t.schemaDropped, true);
  });
});

describe('normalise', () => {
  it('says when the tool returned nothing', () => {
    for (const r of [{ kind: 'undefined' }, { kind: 'string', value: 'undefined' }, { kind: 'json', value: 'null' }]) {
      assert.deepEqual(normalise('t', r), { content: [{ type: 'text', text: "the page's tool t returned nothing" }] });
    }
  });

  it('passes a string as text, and JSON as its text', () => {
    assert.deepEqual(normalise('t', { kind: 'string', value: 'done' }), { content: [{ type: 'text', text: 'done' }] });
    assert.deepEqual(normalise('t', { kind: 'json', value: '"quoted"' }), { content: [{ type: 'text', text: 'quoted' }] });
    assert.deepEqual(normalise('t', { kind: 'json', value: '{"a":1}' }), { content: [{ type: 'text', text: '{"a":1}' }] });
  });

  it('caps long text', () => {
    const text = normalise('t', { kind: 'string', value: 'x'.repeat(OwnToolLimits.MAX_RESULT_TEXT_CHARS + 5) }).content[0].text;
    assert.equal(text.length, OwnToolLimits.MAX_RESULT_TEXT_CHARS);
    assert.match(text, /… \(cut at \d+ characters\)$/);
  });

  it('takes a CallToolResult: text and allowed images, isError kept', () => {
    const png = Buffer.from('pixels!!').toString('base64');
    const value = {
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'image', data: png, mimeType: 'image/svg+xml' },
        { type: 'image', data: '!!!!', mimeType: 'image/png' },
        { type: 'audio', data: png },
      ],
      isError: true,
    };
    assert.deepEqual(normalise('t', { kind: 'json', value: JSON.stringify(value) }), {
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'text', text: '(2 images left out: only base64 PNG, JPEG, GIF or WebP are passed on)' },
        { type: 'text', text: '(1 more part of the answer left out)' },
      ],
      isError: true,
    });
  });

  it('uses structuredContent when there is no block, and says when the answer is empty', () => {
    assert.deepEqual(normalise('t', { kind: 'json', value: JSON.stringify({ content: [], structuredContent: { a: 1 } }) }), {
      content: [{ type: 'text', text: '{"a":1}' }],
    });
    assert.deepEqual(normalise('t', { kind: 'json', value: JSON.stringify({ content: [] }) }), {
      content: [{ type: 'text', text: "the page's tool t returned an empty answer" }],
    });
  });

  it('shares the text budget between blocks', () => {
    const max = OwnToolLimits.MAX_RESULT_TEXT_CHARS;
    const value = { content: [{ type: 'text', text: 'a'.repeat(max - 10) }, { type: 'text', text: 'b'.repeat(100) }, { type: 'text', text: 'c' }] };
    const out = normalise('t', { kind: 'json', value: JSON.stringify(value) }).content;
    assert.equal(out.length, 3);
    assert.equal(out[0].text.length, max - 10);
    // Fewer characters left than the note takes: the block is the note alone
    // (so the answer may pass the budget by up to the note's length).
    assert.equal(out[1].text, '… (cut at 10 characters)');
    assert.equal(out[2].text, '(1 more part of the answer left out)');
  });
});

describe('capText and errorResult', () => {
  it('capText leaves short text and marks a cut', () => {
    assert.equal(capText('abc', 3), 'abc');
    const cutText = capText('x'.repeat(100), 40);
    assert.equal(cutText.length, 40);
    assert.ok(cutText.endsWith('… (cut at 40 characters)'));
  });

  it('errorResult is an isError text result', () => {
    assert.deepEqual(errorResult('no'), { content: [{ type: 'text', text: 'no' }], isError: true });
  });
});

describe('callRoute', () => {
  const list = { documentId: 'D1', tools: [{ name: 'book', source: 'native' }, { name: 'search_form', source: 'form' }] };

  it('follows the document\'s latest list: a form the browser took over runs as WebMCP', () => {
    assert.equal(callRoute(list, 'D1', 'book', 'declarative'), 'native');
    assert.equal(isFormSource(callRoute(list, 'D1', 'book', 'declarative')), false);
    assert.equal(callRoute(list, 'D1', 'search_form', 'form'), 'form');
  });

  it('keeps the call\'s source for another document or a name the list lacks', () => {
    assert.equal(callRoute(list, 'D2', 'book', 'declarative'), 'declarative');
    assert.equal(callRoute(list, 'D1', 'gone', 'declarative'), 'declarative');
    assert.equal(callRoute(undefined, 'D1', 'book', 'form'), 'form');
  });
});

describe('argumentsOf', () => {
  it("takes the host's argumentsText (the model's order) when it is an object, else the arguments", () => {
    assert.deepEqual(Object.keys(argumentsOf({ arguments: { a: 1, z: 2 }, argumentsText: '{"z":2,"a":1}' })), ['z', 'a']);
    assert.deepEqual(argumentsOf({ arguments: { a: 1 }, argumentsText: '[1]' }), { a: 1 });
    assert.deepEqual(argumentsOf({ arguments: { a: 1 }, argumentsText: '{broken' }), { a: 1 });
    assert.deepEqual(argumentsOf({}), {});
  });
});
