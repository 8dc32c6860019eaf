// GENERATED from common/tool_catalog.cpp by `tabbridge tools --js` (codegen/generate.mjs) — do not edit.
// The test generated_in_sync fails when this file and the C++ catalog
// differ; regenerate it with: node codegen/generate.mjs
//
// Every page tool the host sends as page.<name>: the policy capability it
// needs, the session capability (--caps) that lists it (null: listed by
// default), its deadline (0: timeoutMs + marginMs) and its arguments' defaults.

export const PAGE_TOOLS = Object.freeze({
  snapshot: Object.freeze({ capability: 'read', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({"maxChars":20000}) }),
  click: Object.freeze({ capability: 'act', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  type: Object.freeze({ capability: 'act', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  fill_form: Object.freeze({ capability: 'act', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  select_option: Object.freeze({ capability: 'act', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  hover: Object.freeze({ capability: 'act', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  scroll: Object.freeze({ capability: 'act', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  press_key: Object.freeze({ capability: 'act', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  navigate: Object.freeze({ capability: 'navigate', sessionCap: null, deadlineMs: 0, defaults: Object.freeze({"timeoutMs":30000}) }),
  wait_for: Object.freeze({ capability: 'read', sessionCap: null, deadlineMs: 0, defaults: Object.freeze({"timeoutMs":10000}) }),
  screenshot: Object.freeze({ capability: 'read', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  read_page: Object.freeze({ capability: 'read', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({"maxChars":20000}) }),
  console_logs: Object.freeze({ capability: 'read', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  network_errors: Object.freeze({ capability: 'read', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  handle_dialog: Object.freeze({ capability: 'act', sessionCap: null, deadlineMs: 30000, defaults: Object.freeze({}) }),
  evaluate: Object.freeze({ capability: 'eval', sessionCap: 'eval', deadlineMs: 30000, defaults: Object.freeze({}) }),
  drag: Object.freeze({ capability: 'act', sessionCap: 'drag', deadlineMs: 30000, defaults: Object.freeze({}) }),
  upload_file: Object.freeze({ capability: 'act', sessionCap: 'upload', deadlineMs: 30000, defaults: Object.freeze({}) }),
  emulate: Object.freeze({ capability: 'act', sessionCap: 'emulate', deadlineMs: 30000, defaults: Object.freeze({}) }),
  download_file: Object.freeze({ capability: 'download', sessionCap: 'download', deadlineMs: 120000, defaults: Object.freeze({}) }),
  save_pdf: Object.freeze({ capability: 'download', sessionCap: 'download', deadlineMs: 120000, defaults: Object.freeze({"printBackground":true}) }),
  network_requests: Object.freeze({ capability: 'read', sessionCap: 'network', deadlineMs: 30000, defaults: Object.freeze({}) }),
  network_request: Object.freeze({ capability: 'read', sessionCap: 'network', deadlineMs: 30000, defaults: Object.freeze({}) }),
});

export const PAGE_DEADLINE_MARGIN_MS = 5000;
