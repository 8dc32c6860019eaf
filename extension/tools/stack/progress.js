// Progress of a long page tool (docs/protocol.md: page.progress {id, progress, total?, message}).

import { sendEvent } from '../../worker/native_port.js';
import { Event } from '../../worker/protocol.js';

// Returns report(progress, total, message); a no-op when the request id is unknown.
export function progressReporter(ctx) {
  const id = ctx?.requestId;
  if (id === undefined || id === null) return () => {};
  let last = -Infinity;
  return (progress, total, message) => {
    if (ctx.signal?.aborted || progress <= last) return; // MCP: progress must increase
    last = progress;
    const params = { id, progress };
    if (total !== undefined && total !== null) params.total = total;
    if (message) params.message = message;
    sendEvent(Event.PAGE_PROGRESS, params);
  };
}
