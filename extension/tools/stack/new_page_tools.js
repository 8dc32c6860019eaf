// A call that took the tab to another document answers once that document's
// own tools reached the host (own_tools_heard.js), as navigate and open_tab
// do: the host holds the session's notifications while such a call runs
// (host/page_tools.cpp MayMoveThePage, own tool calls, run_steps), so what the
// navigation changed in the session's list is one list_changed, sent right
// before the answer, and the client's next request already knows the new
// page's tools. page_tool.js uses it for every tool that acts (a click on a
// link, Enter on a link or in a form, a submit, the page's own form, button
// and result-list tools, handle_dialog, evaluate): one implementation, not
// one per tool.
//
//   const landing = watchNewPage(tabId);  // before the call acts
//   … the call …
//   await landing.toolsHeard(ctx);        // no commit of another document: at once
//   landing.dispose();
//
// Only a commit of another top document during the call counts (not a
// pushState, a #fragment, a navigation still on its way): a call that did
// not navigate is not slowed by a single browser call.

import { OWN_TOOLS_WAIT_MS, ownToolsHeard } from '../../worker/own_tools_heard.js';

// The watches running now. One listener for all of them, added at import
// (the worker's top level), as navigated_to.js does.
const watches = new Set();
chrome.webNavigation.onCommitted.addListener((d) => {
  if (d.frameId !== 0 || d.documentLifecycle === 'prerender') return;
  for (const w of watches) if (w.tabId === d.tabId) w.committed = true;
});

export function watchNewPage(tabId) {
  const seen = { tabId, committed: false };
  watches.add(seen);
  return {
    // Resolves once the tab's top document, when another one committed since
    // the watch began, has had its own tools handed to the host — or at
    // OWN_TOOLS_WAIT_MS, or at the call's deadline (ctx.deadline: when its
    // answer must be sent), whichever is first; at once when the call was
    // cancelled, or no document committed.
    async toolsHeard({ deadline = Infinity, signal } = {}) {
      watches.delete(seen);
      if (!seen.committed || signal?.aborted) return;
      await ownToolsHeard(tabId, Math.min(OWN_TOOLS_WAIT_MS, deadline - Date.now()));
    },
    dispose: () => watches.delete(seen),
  };
}
