// Service-worker entry. Listeners are registered synchronously here because
// MV3 only delivers the events that woke the worker to top-level listeners.

import './worker/boot_time.js'; // first: when the modules began to run
import { hasHandler, start } from './worker/native_port.js';
import { PAGE_PREFIX } from './worker/protocol.js';
import { PAGE_TOOLS } from './worker/tool_catalog.js';
import { registerTabs } from './worker/tabs.js';
import { registerTabCache } from './worker/tab_cache.js';
import { buildHello } from './worker/hello.js';
import { registerPageTools } from './tools/registry.js';
import { registerOwnTools } from './tools/own/own_tools.js';
import { registerCrashWatch } from './worker/crash_watch.js';
import { registerDebuggerRelease } from './worker/debugger_release.js';
import { registerDebuggerEvents } from './worker/debugger_events.js';
import { registerNetworkLog } from './worker/network_log.js';
import { registerRequestLog } from './worker/request_log.js';
import { registerConsoleCapture } from './worker/console_capture.js';
import { registerHostState } from './worker/host_state.js';
import { registerPopupApi } from './worker/popup_api.js';
import { registerTabGroups } from './worker/tab_groups.js';
import { registerPersonSurface } from './worker/person_surface.js';

registerCrashWatch();
registerDebuggerRelease();
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
