// What the attack tests share (attacks*.test.mjs): the review's two sites — a
// hostile page on an allowed site A (127.0.0.1) and a site D the policy
// denies (localhost) — and a browser whose host enforces that policy.

import fsp from 'node:fs/promises';
import path from 'node:path';

import { CdpConnection, devToolsPages, openTabFromBrowser, targetWsUrl, waitFor } from './harness.mjs';
import { startPageBrowser } from './page_helpers.mjs';

// Site A allowed, site D denied, as the reviews tested it.
export const DENY_D = { rules: [{ sites: ['localhost'], deny: ['all'] }] };

// D may be read, not acted on: a page of A may show D's frame (its text, its
// refs), and input into it is denied.
export const DENY_D_ACT = { rules: [{ sites: ['localhost'], allow: ['read', 'navigate'], deny: ['act'] }] };

// A browser whose host enforces DENY_D (or `rules`); fixture pages name D as {{DENIED_ORIGIN}}.
export async function startDenyingD(h, name, { caps = null, extraBrowserArgs = [], rules = DENY_D } = {}) {
  const policy = path.join(await h.tempDir(`tb-e2e-${name}-`), 'policy.json');
  await fsp.writeFile(policy, JSON.stringify(rules));
  const env = await startPageBrowser(h, { name, caps, extraBrowserArgs, env: { TABBRIDGE_POLICY: policy } });
  env.web.vars.DENIED_ORIGIN = env.web.localhostOrigin;
  return env;
}

// A tab that showed a page of D, then `url` (a page of A) in the same tab —
// D kept in its history (and the back/forward cache) — and then went to the
// background behind a new tab. D is opened from the browser's side
// (tabbridge may not open it). Returns the tab's DevTools target and its
// tabbridge id.
export async function openAfterD(env, deniedUrl, url) {
  const targetId = await openTabFromBrowser(env.port, deniedUrl);
  const target = await waitFor(async () => (await devToolsPages(env.port)).find((p) => p.id === targetId && p.url === deniedUrl),
    { what: 'the D page' });
  const cdp = await CdpConnection.open(targetWsUrl(env.port, target));
  try {
    await cdp.send('Page.navigate', { url });
  } finally {
    cdp.close();
  }
  await waitFor(async () => (await devToolsPages(env.port)).find((p) => p.id === targetId && p.url === url), { what: 'the A page' });
  await openTabFromBrowser(env.port, 'about:blank'); // A goes to the background
  const listed = await waitFor(async () => (await env.s.callOk('list_tabs')).tabs.find((x) => x.url === url), { what: 'A in list_tabs' });
  return { target, tabId: listed.id };
}
