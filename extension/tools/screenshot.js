// screenshot: CDP Page.captureScreenshot of the viewport, the full page
// (height-capped) or one element, scaled so the image's longest side stays
// within what a model can take in one look.

import { cdp } from '../worker/cdp.js';
import { HUNG_ADVICE, tabGone, ToolError } from './stack/errors.js';
import { withTimeout } from '../worker/time.js';
import { pageTool } from './stack/page_tool.js';
import { noteRead } from './stack/reads.js';
import { assertNoDialog } from './shared/act.js';
import { locate } from './shared/targets.js';

const MAX_SIDE_PX = 1568; // longest side of the image sent
const FULL_PAGE_CAP_CSS = 8000; // full-page height (and width) cap, CSS px

// A tab that is not shown draws no frames, so capturing it would hang: bring
// it to the front for the capture and give the window its tab back after.
// The page sees that (visibilitychange) and may navigate on it: the site is
// checked after, on the document itself, and the capture kept only if that
// document is still there (pinned_top.js).
async function withTabShown(tabId, fn) {
  const tab = await chrome.tabs.get(tabId);
  if (tab.active) return { value: await fn(), shown: false };
  const [previous] = await chrome.tabs.query({ windowId: tab.windowId, active: true });
  await chrome.tabs.update(tabId, { active: true });
  try {
    return { value: await fn(), shown: true };
  } finally {
    if (previous) await chrome.tabs.update(previous.id, { active: true }).catch(() => {});
  }
}

async function screenshot(tabId, args, pin) {
  const { value, shown } = await withTabShown(tabId, async () => {
    const documentId = await pin.check();
    if (documentId === null) throw tabGone(tabId);
    return capture(tabId, args, documentId);
  });
  if (shown) value.content[1].text += ' (the tab was brought to the front for the capture)';
  // The image is the pinned document's (page_tool.js compares it after the capture).
  noteRead(tabId, { documentId: pin.documentId, url: pin.url });
  return value;
}

// Page.captureScreenshot's clip is in DIP (CSS px x page zoom), its image in
// device px (DIP x device scale factor) x clip.scale.
async function capture(tabId, { ref, selector, fullPage = false, format = 'jpeg', quality } = {}, documentId) {
  let metrics = await cdp(tabId, 'Page.getLayoutMetrics');
  const zoom = metrics.cssLayoutViewport.clientWidth ? metrics.layoutViewport.clientWidth / metrics.cssLayoutViewport.clientWidth : 1;
  const dsf = Math.max(1, (await devicePixelRatio(tabId, documentId, zoom)) / zoom);

  let css; // the clip in CSS px, document coordinates
  let what;
  let truncated = false;
  let beyond = false;
  const content = metrics.cssContentSize;
  if (ref !== undefined || selector !== undefined) {
    const loc = await locate(tabId, { ref, selector }, { hitTest: false });
    metrics = await cdp(tabId, 'Page.getLayoutMetrics'); // locate may have scrolled
    const lv = metrics.cssLayoutViewport;
    const r = loc.rect;
    let height = r.height;
    if (height > FULL_PAGE_CAP_CSS) {
      height = FULL_PAGE_CAP_CSS;
      truncated = true;
    }
    css = { x: lv.pageX + r.x, y: lv.pageY + r.y, width: r.width, height };
    beyond = r.x < 0 || r.y < 0 || r.x + r.width > lv.clientWidth || r.y + r.height > lv.clientHeight;
    what = loc.desc;
  } else if (fullPage) {
    truncated = content.height > FULL_PAGE_CAP_CSS || content.width > FULL_PAGE_CAP_CSS;
    css = { x: 0, y: 0, width: Math.min(content.width, FULL_PAGE_CAP_CSS), height: Math.min(content.height, FULL_PAGE_CAP_CSS) };
    beyond = true;
    what = 'full page';
  } else {
    const vv = metrics.cssVisualViewport;
    css = { x: vv.pageX, y: vv.pageY, width: vv.clientWidth, height: vv.clientHeight };
    what = 'viewport';
  }
  css.width = Math.max(1, Math.round(css.width));
  css.height = Math.max(1, Math.round(css.height));
  const longest = Math.max(css.width, css.height) * zoom * dsf;
  const scale = longest > MAX_SIDE_PX ? MAX_SIDE_PX / longest : 1;
  const clip = { x: css.x * zoom, y: css.y * zoom, width: css.width * zoom, height: css.height * zoom, scale };
  const params = { format, clip, captureBeyondViewport: beyond, fromSurface: true };
  if (format === 'jpeg') params.quality = quality ?? 80;
  let data;
  try {
    ({ data } = await cdp(tabId, 'Page.captureScreenshot', params, { timeoutMs: 20000 }));
  } catch (e) {
    if (/timed out/.test(e.message)) {
      throw new ToolError('the browser drew no frame to capture in 20 s (is the window minimized?) — restore the window and retry');
    }
    throw e;
  }
  const w = Math.round(clip.width * dsf * scale);
  const h = Math.round(clip.height * dsf * scale);
  let text = `${what}: ${css.width}x${css.height} CSS px`;
  if (w !== css.width || h !== css.height) text += `, image ${w}x${h}`;
  text += ` ${format}`;
  if (truncated) {
    text += `; truncated at ${FULL_PAGE_CAP_CSS} px (page is ${Math.round(content.width)}x${Math.round(content.height)}) — scroll and take viewport screenshots for the rest`;
  }
  return {
    content: [
      { type: 'image', data, mimeType: `image/${format}` },
      { type: 'text', text },
    ],
  };
}

// window.devicePixelRatio as the browser has it: read in our isolated world
// of the pinned document, never in the page's own world, where a getter the
// page defined would run (and could navigate). `fallback` when it cannot be read.
async function devicePixelRatio(tabId, documentId, fallback) {
  try {
    const [r] = await withTimeout(chrome.scripting.executeScript({
      target: { tabId, documentIds: [documentId] }, world: 'ISOLATED', func: () => window.devicePixelRatio,
    }), 3000);
    return typeof r?.result === 'number' && r.result > 0 ? r.result : fallback;
  } catch {
    return fallback; // the document went: the pin's check after the capture says so
  }
}

async function screenshotTool(tabId, args, ctx) {
  assertNoDialog(tabId);
  try {
    return await screenshot(tabId, args, ctx.pin);
  } catch (e) {
    // A hung renderer never paints: say so rather than which CDP step waited.
    if (/timed out/.test(e?.message)) {
      throw new ToolError(`the page did not answer in time (${e.message}): it is busy or hung (a script stuck in a loop?) — ${HUNG_ADVICE}`);
    }
    throw e;
  }
}

export const tool = pageTool(screenshotTool, { debugger: 'required', name: 'screenshot', pinTop: 'tool' });
