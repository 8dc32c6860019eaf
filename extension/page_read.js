// Page tools that read and observe the focused tab: navigate, wait_for,
// read_page, console_logs, network_errors, evaluate, download_file.
// (docs/protocol.md "Page tools": requests page.<tool> {tabId, ...args}.)
//
//   navigate.js         navigate        chrome.tabs + webNavigation (+ network_log.js for networkidle/status)
//   wait_for.js         wait_for        polling every frame with chrome.scripting
//   read_page.js        read_page       page/agent/read.js in the page's isolated world
//   console_capture.js  console_logs    console_main.js (MAIN) + console_relay.js content scripts
//   network_log.js      network_errors  chrome.webRequest
//   evaluate.js         evaluate        CDP Runtime.evaluate through cdp.js
//   download.js         download_file   chrome.downloads into Downloads/tabbridge/

import { registerHandler } from './native_port.js';
import { PAGE_PREFIX } from './protocol.js';
import { navigateTool } from './navigate.js';
import { waitForTool } from './wait_for.js';
import { readPageTool } from './read_page.js';
import { consoleLogsTool, registerConsoleCapture } from './console_capture.js';
import { networkErrorsTool, registerNetworkLog } from './network_log.js';
import { evaluateTool, registerEvaluate } from './evaluate.js';
import { downloadTool, registerDownloads } from './download.js';
import { pageHandler } from './page_handler.js';

// Must run synchronously at the service worker's top level (MV3 listeners).
export function registerReadTools() {
  registerNetworkLog();
  registerConsoleCapture();
  registerEvaluate();
  registerDownloads();

  // navigate reloads a crashed tab; the logs tell what led up to the crash.
  registerHandler(PAGE_PREFIX + 'navigate', pageHandler(navigateTool, { onCrashedTab: true }));
  registerHandler(PAGE_PREFIX + 'wait_for', pageHandler(waitForTool));
  registerHandler(PAGE_PREFIX + 'read_page', pageHandler(readPageTool));
  registerHandler(PAGE_PREFIX + 'console_logs', pageHandler(consoleLogsTool, { onCrashedTab: true }));
  registerHandler(PAGE_PREFIX + 'network_errors', pageHandler(networkErrorsTool, { onCrashedTab: true }));
  registerHandler(PAGE_PREFIX + 'evaluate', pageHandler(evaluateTool));
  registerHandler(PAGE_PREFIX + 'download_file', pageHandler(downloadTool));
}
