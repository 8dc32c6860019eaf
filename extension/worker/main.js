// Service-worker entry. Listeners are registered synchronously here because
// MV3 only delivers the events that woke the worker to top-level listeners.
// The browser runs it as extension/background.js: this module and all it
// imports in one file, written by codegen/generate.mjs (esbuild).

import './boot_time.js'; // first: when the modules began to run
import { hasHandler, start } from './native_port.js';
import { PAGE_PREFIX } from './protocol.js';
import { PAGE_TOOLS } from './tool_catalog.js';
import { registerTabs } from './tabs.js';
import { registerTabCache } from './tab_cache.js';
import { buildHello } from './hello.js';
import { registerPageTools } from '../tools/registry.js';
import { registerOwnTools } from '../tools/own/own_tools.js';
import { registerCrashWatch } from './crash_watch.js';
import { registerDebuggerBar } from './debugger_bar.js';
import { registerDebuggerRelease } from './debugger_release.js';
import { registerDebuggerEvents } from './debugger_events.js';
import { registerNetworkLog } from './network_log.js';
import { registerRequestLog } from './request_log.js';
import { registerConsoleCapture } from './console_capture.js';
import { registerHostState } from './host_state.js';
import { registerPopupApi } from './popup_api.js';
import { registerTabGroups } from './tab_groups.js';
import { registerPersonSurface } from './person_surface.js';

registerCrashWatch();
registerDebuggerRelease();
registerDebuggerBar();
registerDebuggerEvents();
registerTabs();
registerTabCache();
registerNetworkLog();
registerRequestLog();
registerConsoleCapture();
registerPageTools();
registerOwnTools();
registerHostState();
registerPopupApi();
registerTabGroups();
registerPersonSurface();
// Every page tool of the catalog (common/tool_catalog.cpp) has its handler:
// a missing one stops the worker here, where every end-to-end test sees it.
const unhandled = Object.keys(PAGE_TOOLS).filter((name) => !hasHandler(PAGE_PREFIX + name));
if (unhandled.length) throw new Error(`tabbridge: no handler for page tools ${unhandled.join(', ')}`);
start(buildHello);
