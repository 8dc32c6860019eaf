// The one input broker (extension/worker/input_broker.js) is the only module
// that names an effectful CDP method (trusted input, a dialog's answer, files
// into an input) and cdp.js the only one that calls chrome.debugger.sendCommand:
// read from the source, so a tool added later that sends input its own way
// fails here, not in an attack review. (cdp.js also refuses the broker's
// methods at run time: names built from pieces get no further.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { BROKER, CDP, EXT, METHODS, offences, rel, walk, withoutComments } from './lib/source_scan.mjs';

const FILES = walk(EXT).filter((f) => rel(f) !== 'background.js');

describe('the one input broker, read from the source', () => {
  it('the allow-list has the effectful methods the issue names', () => {
    for (const m of ['Input.dispatchMouseEvent', 'Input.dispatchKeyEvent', 'Input.insertText', 'Input.dispatchDragEvent',
      'Input.setInterceptDrags', 'Page.handleJavaScriptDialog', 'DOM.setFileInputFiles']) {
      assert.ok(METHODS.includes(m), `${m} in EFFECTFUL_METHODS`);
    }
  });

  it('the scanner sees a send in code and not in a comment', () => {
    assert.deepEqual(offences(withoutComments("await cdp(tabId, 'Input.dispatchKeyEvent', p);"), 'tools/x.js'), ['Input.dispatchKeyEvent']);
    assert.deepEqual(offences(withoutComments('cdp(t, "Page.handleJavaScriptDialog", {});'), 'tools/x.js'), ['Page.handleJavaScriptDialog']);
    assert.deepEqual(offences(withoutComments('chrome.debugger.sendCommand({ tabId }, m)'), 'tools/x.js'), ['chrome.debugger.sendCommand']);
    assert.deepEqual(offences(withoutComments('// what Input.insertText cannot fill\n/* Input.dispatchMouseEvent */ x = 1;'), 'tools/x.js'), []);
    assert.deepEqual(offences(withoutComments("const s = '// not a comment Input.insertText';"), 'tools/x.js'), ['Input.insertText']);
    assert.deepEqual(offences(withoutComments('x instanceof HTMLInputElement; e.inputType'), 'tools/x.js'), []);
  });

  it('no module but the broker names an effectful CDP method, and only cdp.js calls chrome.debugger.sendCommand', () => {
    const bad = [];
    for (const file of FILES) {
      const name = rel(file);
      if (name === BROKER) continue;
      const found = offences(withoutComments(fs.readFileSync(file, 'utf8')), name);
      if (found.length) bad.push(`${name}: ${found.join(', ')}`);
    }
    assert.deepEqual(bad, [], 'effectful CDP outside worker/input_broker.js');
  });

  it('the broker reserves its methods in cdp.js, which refuses them to cdp() and the attach hooks', () => {
    const broker = withoutComments(fs.readFileSync(path.join(EXT, BROKER), 'utf8'));
    assert.match(broker, /reserveMethods\(EFFECTFUL_METHODS, EFFECTFUL_PREFIXES\)/);
    const cdp = withoutComments(fs.readFileSync(path.join(EXT, CDP), 'utf8'));
    assert.match(cdp, /export function cdp\([^)]*\) \{\s*try \{\s*refuseReserved\(method\)/);
    assert.match(cdp, /const sender = [^\n]*refuseReserved\(method\)/);
  });
});

