// Service-worker entry. Listeners are registered synchronously here because
// MV3 only delivers the events that woke the worker to top-level listeners.

import { start } from './native_port.js';
import { registerTabs } from './tabs.js';
import { buildHello } from './hello.js';

registerTabs();
start(buildHello);
