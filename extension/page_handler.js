// The wrapper of every request that works on one tab's page (page.<tool>,
// pagetool.call): the tab counts as in use while the call runs (the debugger
// is detached only from idle tabs, debugger_release.js), and a crashed tab's
// calls are answered at once with what to do (crash_watch.js) — unless the
// tool is one that works on a crashed tab (navigate reloads it; the console
// and network logs are what led up to the crash).

import { usingTab } from './cdp.js';
import { crashedAnswer } from './crash_watch.js';

export function pageHandler(fn, { onCrashedTab = false } = {}) {
  return (params, ctx) => usingTab(params?.tabId, async () =>
    (!onCrashedTab && (await crashedAnswer(params?.tabId))) || fn(params, ctx));
}
