// Service-worker entry. Listeners are registered synchronously here because
// MV3 only delivers the events that woke the worker to top-level listeners.

import { start } from './native_port.js';
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
start(buildHello);
