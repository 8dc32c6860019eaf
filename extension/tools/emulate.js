// emulate {viewport?, colorScheme?, offline?, userAgent?, reset?}: the focused
// tab as another device or setting would show it, through the debugger's
// overrides (Emulation.*, Network.*). They last as long as the attach, and
// debugger_release.js keeps an emulated tab attached while a session is
// focused on it: leaving the tab (focus_tab elsewhere, the session ends)
// detaches it, which undoes everything. reset undoes it at once.
// Screenshots and snapshots see what the page sees.

import { cdp } from '../worker/cdp.js';
import { emulations } from '../worker/tab_state.js';
import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { dataResult } from './stack/results.js';

const NEUTRAL_NETWORK = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

// The browser's own user agent: the worker's is the one its pages get (the
// tab's debugger has no Browser domain to ask).
const defaultUserAgent = () => self.navigator.userAgent;

async function clearAll(tabId) {
  await cdp(tabId, 'Emulation.clearDeviceMetricsOverride');
  await cdp(tabId, 'Emulation.setTouchEmulationEnabled', { enabled: false });
  await cdp(tabId, 'Emulation.setEmulatedMedia', { features: [] });
  await cdp(tabId, 'Network.emulateNetworkConditions', NEUTRAL_NETWORK);
  await cdp(tabId, 'Emulation.setUserAgentOverride', { userAgent: defaultUserAgent() });
}

async function emulateTool(tabId, { viewport, colorScheme, offline, userAgent, reset = false }) {
  const asked = viewport !== undefined || colorScheme !== undefined || offline !== undefined || userAgent !== undefined;
  if (!asked && !reset) throw new ToolError('give viewport, colorScheme, offline or userAgent — or reset: true to end the emulation');
  if (reset) {
    await clearAll(tabId);
    emulations.delete(tabId);
  }
  const now = { ...(emulations.get(tabId) ?? {}) };
  if (viewport) {
    const { width, height, deviceScaleFactor = 0, mobile = false } = viewport;
    await cdp(tabId, 'Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor, mobile });
    await cdp(tabId, 'Emulation.setTouchEmulationEnabled', { enabled: mobile });
    now.viewport = { width, height, deviceScaleFactor, mobile };
  }
  if (colorScheme) {
    await cdp(tabId, 'Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: colorScheme }] });
    now.colorScheme = colorScheme;
  }
  if (offline !== undefined) {
    await cdp(tabId, 'Network.emulateNetworkConditions', { ...NEUTRAL_NETWORK, offline });
    now.offline = offline;
  }
  if (userAgent !== undefined) {
    await cdp(tabId, 'Emulation.setUserAgentOverride', { userAgent: userAgent || defaultUserAgent() });
    now.userAgent = userAgent || null;
  }
  if (Object.keys(now).length) emulations.set(tabId, now);
  const parts = [];
  if (now.viewport) parts.push(`viewport ${now.viewport.width}x${now.viewport.height}${now.viewport.deviceScaleFactor ? ` @${now.viewport.deviceScaleFactor}x` : ''}${now.viewport.mobile ? ' mobile' : ''}`);
  if (now.colorScheme) parts.push(`${now.colorScheme} color scheme`);
  if (now.offline) parts.push('offline');
  if (now.userAgent) parts.push('another user agent');
  const summary = parts.length
    ? `emulating ${parts.join(', ')} — until you leave the tab or call emulate {reset: true}`
    : 'no emulation: the tab is as the browser shows it';
  return dataResult(summary, { tabId, emulation: now });
}

export const tool = pageTool(emulateTool, { debugger: 'required', name: 'emulate', acts: true });
