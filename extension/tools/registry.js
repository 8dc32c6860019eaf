// Every page tool, by its catalog name (common/tool_catalog.cpp; the worker's
// copy is worker/tool_catalog.js): one module each, exporting `tool` (its
// handler, made with stack/page_tool.js) and, when it watches the browser,
// registerListeners(). Imported statically: an MV3 service worker cannot
// import() at run time. A name that is not in the catalog is refused when
// registered; a catalog tool missing here stops the worker (background.js).

import { registerHandler } from '../worker/native_port.js';
import { PAGE_PREFIX } from '../worker/protocol.js';
import * as snapshot from './snapshot.js';
import * as click from './click.js';
import * as type from './type.js';
import * as fillForm from './fill_form.js';
import * as selectOption from './select_option.js';
import * as hover from './hover.js';
import * as scroll from './scroll.js';
import * as pressKey from './press_key.js';
import * as navigate from './navigate.js';
import * as waitFor from './wait_for.js';
import * as screenshot from './screenshot.js';
import * as readPage from './read_page.js';
import * as consoleLogs from './console_logs.js';
import * as networkErrors from './network_errors.js';
import * as handleDialog from './handle_dialog.js';
import * as evaluate from './evaluate.js';
import * as downloadFile from './download_file.js';

const PAGE_TOOL_MODULES = {
  snapshot,
  click,
  type,
  fill_form: fillForm,
  select_option: selectOption,
  hover,
  scroll,
  press_key: pressKey,
  navigate,
  wait_for: waitFor,
  screenshot,
  read_page: readPage,
  console_logs: consoleLogs,
  network_errors: networkErrors,
  handle_dialog: handleDialog,
  evaluate,
  download_file: downloadFile,
};

// Must run synchronously at the service worker's top level (MV3 listeners).
export function registerPageTools() {
  for (const [name, module] of Object.entries(PAGE_TOOL_MODULES)) {
    module.registerListeners?.();
    registerHandler(PAGE_PREFIX + name, module.tool);
  }
}
