// The `hello` event's params: the first message on every port (docs/protocol.md §1).

import { PROTOCOL_VERSION } from './protocol.js';
import { browserInfo } from './browser_info.js';
import { toTab } from './tabs.js';
import { restored } from './session_store.js';
import { refreshPersonActive } from './active_tab.js';
import { evaluatedAt } from './boot_time.js';
import { firstConnectAt } from './native_port.js';

export async function buildHello() {
  await restored(); // a restarted worker answers nothing before its state is back
  const [browser, tabs] = await Promise.all([browserInfo(), chrome.tabs.query({}), refreshPersonActive()]);
  return {
    protocol: PROTOCOL_VERSION,
    browser,
    extension: { id: chrome.runtime.id, version: chrome.runtime.getManifest().version },
    tabs: tabs.map(toTab),
    // When this worker started and when its hello left (epoch ms): the host
    // logs them for the first-page timeline (bench/first_page.mjs).
    timing: {
      workerStart: Math.round(performance.timeOrigin), evaluated: evaluatedAt, connect: firstConnectAt, hello: Date.now(),
    },
  };
}
