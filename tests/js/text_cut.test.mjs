// extension/worker/text_cut.js (the one cut of page text: on whole code
// points) and extension/worker/well_formed.js (what the native port sends is
// well-formed), and that every page script cuts with the same code
// (issue 29: half a surrogate pair cut the browser off).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cut, cutEnd } from '../../extension/worker/text_cut.js';
import { wellFormed } from '../../extension/worker/well_formed.js';
import { loadAgent } from './page_agent_vm.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EMOJI = '😀'; // two UTF-16 units

describe('cut', () => {
  it('leaves text within the limit as it is', () => {
    assert.equal(cut('abc', 3), 'abc');
    assert.equal(cut(EMOJI.repeat(3), 6), EMOJI.repeat(3));
  });
  it('cuts at max - 1 units and marks the cut', () => {
    assert.equal(cut('abcdef', 4), 'abc…');
  });
  it('never ends in half a surrogate pair, wherever the limit falls', () => {
    const title = EMOJI.repeat(70);
    for (let max = 2; max <= 141; max++) {
      for (const s of [title, `a${title}`]) {
        const out = cut(s, max);
        assert.doesNotMatch(out, LONE, `cut at ${max}`);
        assert.ok(out.length <= max, `cut at ${max}: ${out.length} units`);
      }
    }
    assert.equal(cut(EMOJI.repeat(70), 60), `${EMOJI.repeat(29)}…`); // the title of issue 29's page, as the form tool's description cut it
  });
  it('drops a zero-width joiner the cut would leave hanging', () => {
    const family = '👨\u200d👩\u200d👧';
    for (let max = 2; max <= family.length; max++) {
      const out = cut(family, max);
      assert.doesNotMatch(out, LONE, `cut at ${max}`);
      assert.doesNotMatch(out, /\u200d…$/, `cut at ${max}: ${JSON.stringify(out)}`);
    }
  });
});

describe('cutEnd', () => {
  it('moves an end inside a pair back before it', () => {
    assert.equal(cutEnd(`a${EMOJI}b`, 2), 1);
    assert.equal(cutEnd(`a${EMOJI}b`, 3), 3);
    assert.equal(cutEnd('abc', 10), 3);
  });
});

describe('wellFormed', () => {
  it('replaces lone surrogates in strings, keys and nested values with U+FFFD', () => {
    const msg = { jsonrpc: '2.0', method: 'owntools.changed', params: { tools: [{ name: 'x', description: 'half \ud83d of a pair' }], ['k\udc00']: ['\ud800', 1, null, true] } };
    const out = wellFormed(msg);
    assert.deepEqual(out, { jsonrpc: '2.0', method: 'owntools.changed', params: { tools: [{ name: 'x', description: 'half \ufffd of a pair' }], ['k\ufffd']: ['\ufffd', 1, null, true] } });
    assert.doesNotMatch(JSON.stringify(out), /\\ud[89a-f]/i, 'no surrogate escape in the JSON');
    assert.equal(msg.params.tools[0].description, 'half \ud83d of a pair', 'the original is not changed');
  });
  it('passes a well-formed message on as the same object', () => {
    const msg = { a: [EMOJI, { b: 'ok' }], c: 1 };
    assert.equal(wellFormed(msg), msg);
    assert.equal(wellFormed(msg.a), msg.a);
  });
});

describe('the page scripts cut with the same code', () => {
  const source = fs.readFileSync(path.join(ROOT, 'extension/worker/text_cut.js'), 'utf8');
  const body = (f) => String(f).split('\n').slice(1).join('\n').trim(); // indentation differs
  for (const file of ['page/forms_kit.js', 'page/own_tools_main.js', 'page/result_lists.js', 'page/console_main.js', 'page/agent/text.js']) {
    it(file, () => {
      const text = fs.readFileSync(path.join(ROOT, 'extension', file), 'utf8');
      assert.match(text, /generated: text-cut/, `${file} has no text-cut block`);
      for (const f of [cut, cutEnd]) {
        const lines = body(f).split('\n').map((l) => l.trim());
        for (const line of lines) assert.ok(text.includes(line), `${file}: ${f.name} differs from text_cut.js at ${JSON.stringify(line)}`);
      }
      assert.doesNotMatch(text, /const cut = /, `${file} has a cut of its own`);
    });
  }
  it('the page agent cuts on whole code points', () => {
    const { cut: agentCut } = loadAgent().agent.text;
    assert.equal(agentCut(EMOJI.repeat(70), 60), `${EMOJI.repeat(29)}…`);
    assert.ok(source.includes('export function cut('));
  });
});
