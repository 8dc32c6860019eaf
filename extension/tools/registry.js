// Every page tool, by its catalog name (common/tool_catalog.cpp; the worker's
// copy is worker/tool_catalog.js): one module each, tools/<name>.js,
// exporting `tool` (its handler, made with stack/page_tool.js) and, when it
// watches the browser, registerListeners(). Imported statically (an MV3
// service worker cannot import() at run time), by the block the generator
// writes from the catalog. A name that is not in the catalog is refused when
// registered; a catalog tool missing here stops the worker (worker/main.js).

import { registerHandler } from '../worker/native_port.js';
import { PAGE_PREFIX } from '../worker/protocol.js';
// generated: page-tool-modules
import * as snapshot from './snapshot.js';
import * as click from './click.js';
import * as type from './type.js';
import * as fill_form from './fill_form.js';
import * as select_option from './select_option.js';
import * as hover from './hover.js';
import * as scroll from './scroll.js';
import * as press_key from './press_key.js';
import * as navigate from './navigate.js';
import * as wait_for from './wait_for.js';
import * as screenshot from './screenshot.js';
import * as read_page from './read_page.js';
import * as console_logs from './console_logs.js';
import * as network_errors from './network_errors.js';
import * as handle_dialog from './handle_dialog.js';
import * as evaluate from './evaluate.js';
import * as drag from './drag.js';
import * as upload_file from './upload_file.js';
import * as emulate from './emulate.js';
import * as download_file from './download_file.js';
import * as save_pdf from './save_pdf.js';
import * as network_requests from './network_requests.js';
import * as network_request from './network_request.js';

export const PAGE_TOOL_MODULES = Object.freeze({ snapshot, click, type, fill_form, select_option, hover, scroll, press_key, navigate, wait_for, screenshot, read_page, console_logs, network_errors, handle_dialog, evaluate, drag, upload_file, emulate, download_file, save_pdf, network_requests, network_request });
// end generated (codegen/generate.mjs, from common/tool_catalog.cpp: one module per page tool, named after it)

// Must run synchronously at the service worker's top level (MV3 listeners).
export function registerPageTools() {
  for (const [name, module] of Object.entries(PAGE_TOOL_MODULES)) {
    module.registerListeners?.();
    registerHandler(PAGE_PREFIX + name, module.tool);
  }
}
