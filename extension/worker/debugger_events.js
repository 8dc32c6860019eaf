// Tells the host when the user ends our debugging of a tab ("Cancel" on the
// browser's "started debugging this browser" bar): the sessions focused on
// that tab hear of it instead of finding out from a failing call. Detaches we
// make ourselves (debugger_release.js) and closed tabs (tab.removed) are not
// news.

import { onDetach } from './cdp.js';
import { sendEvent } from './native_port.js';
import { Event } from './protocol.js';

export function registerDebuggerEvents() {
  onDetach((tabId, reason) => {
    if (reason === 'canceled_by_user') sendEvent(Event.DEBUGGER_DETACHED, { tabId, reason });
  });
}
