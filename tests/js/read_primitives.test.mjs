// Provenance on every read (issue 42 item 1): the page is read only through
// the modules that note what they read (extension/tools/stack/reads.js). A
// new tool that ran a script in a page, evaluated over CDP or captured the
// page anywhere else could hand over text the host never judged: this check
// fails the build instead. Pure: reads the sources, runs nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../extension');

// What reads a page, and the files allowed to do it, each with its reason.
const PRIMITIVES = [
  {
    what: 'chrome.scripting.executeScript',
    pattern: /\bexecuteScript\s*\(/,
    allowed: {
      'tools/stack/agent_runner.js': 'the page agent: every answer carries its document\'s URL (callAgent) and is noted',
      'tools/stack/inject.js': 'notes every frame that answered (readUrl, or document_reads.js)',
      'tools/stack/document_reads.js': 'asks a named document its URL (the provenance itself)',
      'tools/own/in_document.js': 'runs in one named document and notes the read with its URL',
      'tools/own/result_page.js': 'notes the page it read with the URL its own script read; isDeclarativeForm answers a boolean',
      'tools/own/own_tools.js': 'the WebMCP call is noted (readingDocument); the other scripts install content scripts and read nothing',
      'tools/screenshot.js': 'devicePixelRatio: a number, not page text; the capture is noted with the pinned document',
      'tools/stack/frame_guard.js': 'the input broker\'s frame map (sites and boxes for the host\'s decision), no page text in answers',
      'worker/page_load.js': 'whether the document parsed: a boolean',
      'worker/input_broker.js': 'holds the top document and counts the keys each frame got (the key witness): a focus report and numbers, no page text in answers',
      'worker/console_capture.js': 'installs the console relay, reads nothing (entries are noted by console_logs with their page URL)',
    },
  },
  {
    what: 'chrome.debugger.sendCommand',
    pattern: /\bsendCommand\s*\(/,
    allowed: { 'worker/cdp.js': 'the one CDP client: a tool reads over CDP through the primitives below' },
  },
  {
    what: 'CDP Runtime.evaluate / Runtime.callFunctionOn',
    pattern: /'Runtime\.(evaluate|callFunctionOn)'/,
    allowed: {
      'tools/evaluate.js': 'notes each evaluation with its context\'s location.href (noteEvaluated)',
      'tools/upload_file.js': 'sets the chosen files; answers what it was given (the frame was read by the agent\'s fileInput op)',
      'worker/cdp.js': 'a liveness probe (1), no page text',
    },
  },
  {
    what: 'CDP Page.captureScreenshot / Page.printToPDF',
    pattern: /'Page\.(captureScreenshot|printToPDF)'/,
    allowed: {
      'tools/screenshot.js': 'noted with the pinned document, compared after the capture',
      'tools/save_pdf.js': 'noted with the pinned document, compared after the print',
    },
  },
  {
    what: 'CDP Network.getResponseBody',
    pattern: /'Network\.getResponseBody'/,
    allowed: { 'worker/request_log.js': 'bodies shown by network_request, which notes the request\'s URL' },
  },
  {
    what: 'chrome.tabs.captureVisibleTab / chrome.pageCapture',
    pattern: /\bcaptureVisibleTab\b|\bpageCapture\b/,
    allowed: {},
  },
];

// Every worker-side module: what runs in pages (extension/page/) reads its own
// document by definition and answers only through the primitives above; the
// bundle is generated from these files.
function workerSources() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const rel = path.relative(EXTENSION, p).split(path.sep).join('/');
      if (e.isDirectory()) {
        if (rel !== 'page') walk(p);
      } else if (rel.endsWith('.js') && rel !== 'background.js') {
        out.push(rel);
      }
    }
  };
  walk(EXTENSION);
  return out;
}

// Comments may name a primitive.
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('the page is read only through the read primitives', () => {
  const sources = workerSources().map((rel) => ({ rel, text: code(fs.readFileSync(path.join(EXTENSION, rel), 'utf8')) }));

  it('finds the extension\'s modules', () => assert.ok(sources.length > 50, `${sources.length} modules`));

  for (const p of PRIMITIVES) {
    it(`${p.what} only in its allowed files`, () => {
      const outside = sources.filter((s) => p.pattern.test(s.text) && !(s.rel in p.allowed)).map((s) => s.rel);
      assert.deepEqual(outside, [], `${p.what} outside the read primitives — read through stack/reads.js's modules, ` +
        'or add the file to this list with why its reads are noted');
    });

    it(`${p.what}: every allowed file still uses it (the list stays true)`, () => {
      for (const rel of Object.keys(p.allowed)) {
        const s = sources.find((x) => x.rel === rel);
        assert.ok(s && p.pattern.test(s.text), `${rel} no longer uses ${p.what}: take it off the list`);
      }
    });
  }

  it('every page tool goes through pageTool, which stamps its answer (stack/page_tool.js)', () => {
    const registry = sources.find((s) => s.rel === 'tools/registry.js');
    const tools = [...registry.text.matchAll(/from '\.\/([\w/]+\.js)'/g)].map((m) => `tools/${m[1]}`);
    assert.ok(tools.length > 20, `${tools.length} tool modules`);
    for (const rel of tools) {
      const s = sources.find((x) => x.rel === rel);
      if (!s || !/export const tool\b/.test(s.text)) continue;
      assert.match(s.text, /export const tool = pageTool\(/, `${rel}: its handler is not a pageTool (no ledger, no stamp)`);
    }
    const pageTool = sources.find((s) => s.rel === 'tools/stack/page_tool.js');
    assert.match(pageTool.text, /stampResult\(/, 'pageTool stamps every answer');
    assert.match(sources.find((s) => s.rel === 'tools/own/own_tools.js').text, /pageTool\(callOwnTool/, 'owntool.call is a pageTool');
  });
});
