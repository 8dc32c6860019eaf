// The wrapper every request that works on one tab's page goes through
// (page.<tool> and owntool.call): the tab counts as in use while the call
// runs (the debugger is detached only from idle tabs, debugger_release.js); a
// tab that left the site the host checked the call for (params.policyUrl) is
// not touched — PAGE_MOVED, site_key.js; a crashed tab's calls are answered at
// once with what to do (crash_watch.js) unless the tool works on a crashed tab
// (navigate reloads it; the console and network logs are what led up to the
// crash); a tab that is gone is TAB_NOT_FOUND; the debugger is attached first
// when the tool needs it; a ToolError thrown by the tool is its isError answer.
//
// The tool is run(tabId, args, ctx): args without tabId and policyUrl; ctx is
// native_port's (signal, deadline, requestId) plus tab (chrome.tabs.Tab, as
// last reported: tab_cache.js),
// recheckSite() — the same site check again, for the moment it acts
// (effects.js) — and policyUrl, for tools that reach beyond the page
// (download_file.js).

import { attach, usingTab } from '../../worker/cdp.js';
import { isCrashed, looksCrashed } from '../../worker/crash_watch.js';
import { Method, POLICY_URL_PARAM, RpcError } from '../../worker/protocol.js';
import { OWN_TOOL_UNPINNED, PAGE_TOOLS } from '../../worker/tool_catalog.js';
import { assertOnSite, isOnSite } from '../../worker/site_key.js';
import { freshTab, knownTab } from '../../worker/tab_cache.js';
import { watchTopFrame } from '../shared/navigated_to.js';
import { watchNewPage } from './new_page_tools.js';
import { pinTop as pinTopFrame } from './pinned_top.js';
import { Denied, guardFrames } from './frame_guard.js';
import { tabGone, ToolError } from './errors.js';
import { errorResult } from './results.js';
import { openLedger, stampResult } from './reads.js';
import { requireTabId } from './tab.js';

// debugger: 'none' | 'required' (the tool sends CDP commands) | 'optional'
// (it can do without, e.g. snapshot on a tab DevTools holds).
// watchTop: the tool gets ctx.nav, a watch of the tab's top frame started
// before the site check (navigated_to.js) — a commit after the check is seen
// without checking the site again.
// Pinned by default: the answer comes from the top document the site check
// passed for, or is dropped for PAGE_MOVED (pinned_top.js) — checked after the
// attach (which the page may see) and compared after the tool ran. pinTop:
// 'tool' gives the tool ctx.pin to check when it is ready (screenshot: after
// the tab was brought forward, which the page sees); a tool that writes what
// it read somewhere (save_pdf) calls ctx.pin.assertSame() before it does.
// Not pinned: a tool whose answer may rightly come from another document says
// why in its catalog entry (common/tool_catalog.cpp `unpinned`, generated into
// worker/tool_catalog.js), with the structure that keeps its guarantee instead;
// a tool cannot opt out here (tests/js/page_tool_pins).
// Provenance (reads.js): every read on the tab while the call runs goes into
// the call's ledger, and every block of its answer that names no documents
// itself is stamped with the ledger (the host judges each, and drops a block
// without a mark).
// acts: trusted input; its targets in frames of another site are decided by
// the host first (frame_guard.js), and every press is checked where it lands
// (press_point.js).
// newPageTools (by default: acts): a call during which the tab's top frame
// committed another document answers once that document's own tools reached
// the host (new_page_tools.js), so the navigation's list_changed comes first;
// no commit, no wait.
export function pageTool(run, { onCrashedTab = false, debugger: needsDebugger = 'none', name = 'tool', watchTop = false,
  pinTop = true, acts = false, newPageTools = acts, ...rest } = {}) {
  if ('unpinned' in rest) throw new TypeError(`page tool ${name}: an opt-out of the pin is declared in the catalog, not here`);
  const pinning = pinningOf(name, pinTop, unpinnedReason(name));
  if (pinning.mode === 'unpinned') pinTop = false;
  const answer = catchToolError(run);
  const handler = (params, ctx) => {
    const { [POLICY_URL_PARAM]: policyUrl, tabId, ...args } = params ?? {};
    const currentTab = () => (Number.isInteger(tabId) ? freshTab(tabId) : null);
    // No tab: the answer is "gone" (below, or the tool's own look-up).
    const recheckSite = async () => assertOnSite(await currentTab(), policyUrl);
    return usingTab(tabId, async () => {
      const ledger = Number.isInteger(tabId) ? openLedger(tabId) : null;
      try {
        return stampResult(await runOnTab(), ledger?.reads() ?? []);
      } finally {
        ledger?.close();
      }
    });
    async function runOnTab() {
      const nav = watchTop && Number.isInteger(tabId) ? watchTopFrame(tabId) : null;
      const pin = pinTop && Number.isInteger(tabId) ? pinTopFrame(tabId, policyUrl) : null;
      const releaseFrames = acts && Number.isInteger(tabId) ? guardFrames(tabId, policyUrl, ctx?.requestId) : null;
      const landing = newPageTools && Number.isInteger(tabId) ? watchNewPage(tabId) : null;
      try {
        // The tab as last reported, when it passes; a look at the browser when
        // not (tab_cache.js: an event on its way may have been overtaken). A
        // move still on its way after this is the watch's (navigatedTo), as a
        // move during the call is.
        const known = Number.isInteger(tabId) ? knownTab(tabId) : null;
        const tab = known && isOnSite(known, policyUrl) && !looksCrashed(known) ? known : await currentTab();
        assertOnSite(tab, policyUrl);
        const crashed = onCrashedTab ? null : crashedAnswer(tabId, tab);
        if (crashed) return crashed;
        requireTabId(tabId);
        if (!tab) throw tabGone(tabId);
        if (needsDebugger !== 'none') await attachFor(name, tabId, needsDebugger === 'required');
        if (pinTop === true) await pin.check();
        const result = await answer(tabId, args, { ...ctx, tab, recheckSite, policyUrl, nav, pin });
        await pin?.assertSame();
        await landing?.toolsHeard(ctx ?? {});
        return result;
      } finally {
        nav?.dispose();
        pin?.dispose();
        releaseFrames?.();
        landing?.dispose();
      }
    }
  };
  handler.pinning = pinning;
  handler.toolName = name;
  return handler;
}

// The catalog's reason a tool is not pinned, or null.
function unpinnedReason(name) {
  if (name === Method.OWN_TOOL_CALL) return OWN_TOOL_UNPINNED;
  return Object.hasOwn(PAGE_TOOLS, name) ? PAGE_TOOLS[name].unpinned : null;
}

// How a tool's answer is tied to the checked document: {mode: 'check'|'tool'|
// 'unpinned', reason?}. An opt-out without a reason is a definition error.
function pinningOf(name, pinTop, unpinned) {
  if (unpinned !== null) {
    if (typeof unpinned !== 'string' || unpinned.trim().length < 20) {
      throw new TypeError(`page tool ${name}: unpinned needs its reason (why its answer may come from another document)`);
    }
    if (pinTop !== true) throw new TypeError(`page tool ${name}: pinTop and unpinned exclude each other`);
    return { mode: 'unpinned', reason: unpinned };
  }
  if (pinTop !== true && pinTop !== 'tool') throw new TypeError(`page tool ${name}: pinTop is true or 'tool'`);
  return { mode: pinTop === 'tool' ? 'tool' : 'check' };
}

async function attachFor(name, tabId, required) {
  try {
    await attach(tabId);
  } catch (e) {
    if (required || e instanceof RpcError) throw e;
    console.info(`tabbridge: ${name} without debugger: ${e.message}`);
  }
}

// The answer of a page tool called on a crashed tab, or null when it runs.
function crashedAnswer(tabId, tab) {
  if (!Number.isInteger(tabId) || !tab) return null;
  if (isCrashed(tabId)) {
    return errorResult(`tab ${tabId} crashed — reload it (navigate {action: "reload"}) or close it (close_tab)`);
  }
  if (looksCrashed(tab)) {
    return errorResult(`tab ${tabId} has no running page (it crashed, or the browser has not loaded it yet) — ` +
      'reload it (navigate {action: "reload"}) or close it (close_tab)');
  }
  return null;
}

// fn with its ToolError as an isError result, for a tool that adds to every
// answer, errors included (where it navigated to: navigate, wait_for, evaluate).
export function catchToolError(fn) {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (e) {
      if (e instanceof ToolError) return errorResult(e.message);
      if (e instanceof Denied) return e.result;
      throw e;
    }
  };
}
