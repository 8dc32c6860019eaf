// upload_file {ref|selector, paths}: local files into a file input. The shim
// read the files (mcp_shim/upload_files.h) and they come as `files`, bytes in
// base64; the browser is never given a path. Three ways in:
//   * the target is the input, its label, or holds one (a drop zone around a
//     hidden input): the page agent puts them in (page/agent/files.js);
//   * otherwise it is clicked with the file chooser intercepted — no dialog
//     opens — and they go into the input the chooser was opened for, through
//     the debugger (that input may be in no document: made for the click).
// The answer names what the input holds now. (docs/page_tools.md)

import { cdp, onCdpEvent } from '../worker/cdp.js';
import { byteSize } from '../worker/read_format.js';
import { siteKey } from '../worker/site_key.js';
import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { textResult } from './stack/results.js';
import { account, assertNoDialog, clickAt, navResult } from './shared/act.js';
import { withEffects } from './shared/effects.js';
import { locate, runAgent, targetOf } from './shared/targets.js';

// A click's file chooser opens within the click's task; a page that opens it
// after a fetch or a timer gets this long.
const CHOOSER_WAIT_MS = 2_000;
// Decoding many megabytes in the page takes a while.
const PUT_TIMEOUT_MS = 20_000;

const listed = (holds) => holds.map((f) => `${f.name} (${byteSize(f.size)})`).join(', ') || 'nothing';

function fitsInput(input, files) {
  if (input.disabled) throw new ToolError(`${input.desc} is disabled — it takes no files now`);
  if (!input.multiple && files.length > 1) throw new ToolError(`${input.desc} takes one file, not ${files.length} — upload them one at a time if the page allows`);
}

// page/agent/files.js, to run alone in the debugger's world of a chooser's input.
let filesSource = null;
async function agentFilesSource() {
  filesSource ??= fetch(chrome.runtime.getURL('page/agent/files.js')).then((r) => r.text());
  return filesSource;
}

// The files into the input a chooser was opened for ({frameId, backendNodeId}
// of Page.fileChooserOpened, and the session of the frame's target): in a
// world of our own, so nothing the page put on its globals runs.
async function putThroughDebugger(tabId, chooser, files) {
  const opts = chooser.sessionId ? { sessionId: chooser.sessionId } : {};
  const { executionContextId } = await cdp(tabId, 'Page.createIsolatedWorld', { frameId: chooser.frameId, worldName: 'tabbridge upload' }, opts);
  const { object } = await cdp(tabId, 'DOM.resolveNode', { backendNodeId: chooser.backendNodeId, executionContextId }, opts);
  try {
    const source = await agentFilesSource();
    const r = await cdp(tabId, 'Runtime.callFunctionOn', {
      objectId: object.objectId,
      functionDeclaration: `function (files) {\n${source}\nreturn globalThis.__tabbridgeAgent.files.put(this, files);\n}`,
      arguments: [{ value: files }],
      returnByValue: true,
    }, { ...opts, timeoutMs: PUT_TIMEOUT_MS });
    if (r.exceptionDetails) throw new ToolError(`the file input refused the files: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result?.value ?? {};
  } finally {
    cdp(tabId, 'Runtime.releaseObject', { objectId: object.objectId }, opts).catch(() => {});
  }
}

// The URL of frame `frameId` (CDP's id) in the tree of a target, or null.
async function frameUrl(tabId, frameId, opts) {
  const { frameTree } = await cdp(tabId, 'Page.getFrameTree', {}, opts);
  const walk = (node) => (node.frame.id === frameId ? node.frame.url : (node.childFrames ?? []).map(walk).find(Boolean) ?? null);
  return walk(frameTree);
}

// A chooser counts only from where the click went: the top document's
// target for a click there; for a click in a frame, a frame of that frame's
// site (which the frame guard allowed), whatever target it is in.
async function assertChooserFrom(tabId, chooser, loc) {
  if (loc.frameId === 0 && !chooser.sessionId) return;
  const clicked = await chrome.webNavigation.getFrame({ tabId, frameId: loc.frameId }).catch(() => null);
  const url = await frameUrl(tabId, chooser.frameId, chooser.sessionId ? { sessionId: chooser.sessionId } : {}).catch(() => null);
  if (!clicked || !url || siteKey(url) !== siteKey(clicked.url)) {
    throw new ToolError(`a file dialog opened in a frame of ${url ? siteKey(url) : 'an unknown site'}, not where ${loc.desc} is — no files were put in`);
  }
}

// Clicks loc with the chooser intercepted; resolves to the chooser it opened, or null.
async function clickForChooser(tabId, loc, { signal }) {
  let chooser = null;
  let wake = null;
  const off = onCdpEvent('Page.fileChooserOpened', (tab, params, sessionId) => {
    if (tab !== tabId || chooser) return;
    chooser = { ...params, sessionId };
    wake?.();
  });
  try {
    await cdp(tabId, 'Page.setInterceptFileChooserDialog', { enabled: true });
    const r = await clickAt(tabId, loc, { signal });
    if (!chooser && !r.dialog) {
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, CHOOSER_WAIT_MS);
      });
    }
    return { ...r, chooser };
  } finally {
    off();
    cdp(tabId, 'Page.setInterceptFileChooserDialog', { enabled: false }).catch(() => {});
  }
}

async function uploadFileTool(tabId, { ref, selector, paths, files }, { signal, recheckSite }) {
  assertNoDialog(tabId);
  if (!Array.isArray(files) || files.length !== paths?.length) {
    throw new ToolError('the files did not come with the call — reinstall tabbridge so its shim and host match');
  }
  const t = await targetOf(tabId, { ref, selector });
  const found = await runAgent(tabId, t.frameId, 'fileInput', t.args, { signal });
  if (found.input) {
    fitsInput(found.input, files);
    let put;
    const fx = await withEffects(tabId, async () => {
      put = await runAgent(tabId, t.frameId, 'setFiles', { ...t.args, files }, { signal, timeoutMs: PUT_TIMEOUT_MS });
    }, { frameId: t.frameId, signal, recheckSite });
    const into = found.input.desc === found.desc ? found.desc : `the file input of ${found.desc}`;
    return navResult(textResult(account(`${into} now holds ${listed(put.holds)}`, fx.effects)), fx);
  }

  // Not a file input: what a click on it opens.
  const loc = await locate(tabId, { ref, selector }, { signal });
  if (loc.state?.disabled) throw new ToolError(`${loc.desc} is disabled — it cannot be clicked now`);
  let put = null;
  const fx = await withEffects(tabId, async () => {
    const r = await clickForChooser(tabId, loc, { signal });
    if (r.dialog) return r;
    if (!r.chooser) {
      throw new ToolError(`${loc.desc} is not a file input and clicking it opened no file chooser — ` +
        'give the <input type=file>, its label, or the button that opens the file dialog');
    }
    if (r.chooser.backendNodeId === undefined) {
      throw new ToolError(`clicking ${loc.desc} opened a file picker that is not a file input (showOpenFilePicker) — tabbridge cannot fill that one`);
    }
    if (r.chooser.mode === 'selectSingle' && files.length > 1) {
      throw new ToolError(`the file dialog ${loc.desc} opens takes one file, not ${files.length}`);
    }
    await assertChooserFrom(tabId, r.chooser, loc);
    // The click is something the page saw: the site is checked again before the files go in.
    await recheckSite();
    put = await putThroughDebugger(tabId, r.chooser, files);
    if (put.error) throw new ToolError(`the file input ${loc.desc} opened: ${put.error}`);
    return r;
  }, { frameId: loc.frameId, signal, recheckSite });
  if (!put) return navResult(textResult(account(`clicked ${loc.desc}; no files were put in`, fx.effects)), fx);
  return navResult(textResult(account(`clicked ${loc.desc} (its file dialog intercepted): the file input now holds ${listed(put.holds)}`, loc.note, fx.effects)), fx);
}

export const tool = pageTool(uploadFileTool, { debugger: 'required', name: 'upload_file', acts: true });
