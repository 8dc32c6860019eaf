// Service-worker entry. Listeners are registered synchronously here because
// MV3 only delivers the events that woke the worker to top-level listeners.

import { hasHandler, start } from './native_port.js';
import { PAGE_PREFIX } from './protocol.js';
import { PAGE_TOOLS } from './tool_catalog.js';
import { registerTabs } from './tabs.js';
import { buildHello } from './hello.js';
import { registerActTools } from './page_act.js';
import { registerReadTools } from './page_read.js';
import { registerOwnTools } from './own_tools.js';
import { registerCrashWatch } from './crash_watch.js';
import { registerDebuggerRelease } from './debugger_release.js';
import { registerDebuggerEvents } from './debugger_events.js';

registerCrashWatch();
registerDebuggerRelease();
registerDebuggerEvents();
registerTabs();
registerActTools();
registerReadTools();
registerOwnTools();
// Every page tool of the catalog (common/tool_catalog.cpp) has its handler:
// a missing one stops the worker here, where every end-to-end test sees it.
const unhandled = Object.keys(PAGE_TOOLS).filter((name) => !hasHandler(PAGE_PREFIX + name));
if (unhandled.length) throw new Error(`tabbridge: no handler for page tools ${unhandled.join(', ')}`);
start(buildHello);
