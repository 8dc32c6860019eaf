// The read primitives (issue 42 item 1): what reads a page, and the modules
// allowed to do it, each with why its reads are noted (extension/tools/stack/
// reads.js). read_primitives.test.mjs checks every module against it;
// catalog_walk.test.mjs every tool's imports.

export const PRIMITIVES = [
  {
    what: 'chrome.scripting.executeScript',
    pattern: /\bexecuteScript\s*\(/,
    allowed: {
      'tools/stack/agent_runner.js': 'the page agent: every answer carries its document\'s URL (callAgent) and is noted',
      'tools/stack/inject.js': 'notes every frame that answered (readUrl, or document_reads.js)',
      'tools/stack/document_reads.js': 'asks a named document its URL (the provenance itself)',
      'tools/own/in_document.js': 'runs in one named document and notes the read with its URL',
      'tools/own/result_page.js': 'notes the page it read with the URL its own script read; isDeclarativeForm and submitPrevented answer booleans',
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

