// What the attack tests share (attacks*.test.mjs): the review's two sites — a
// hostile page on an allowed site A (127.0.0.1) and a site D the policy
// denies (localhost) — and a browser whose host enforces that policy.

import fsp from 'node:fs/promises';
import path from 'node:path';

import { startPageBrowser } from './page_helpers.mjs';

// Site A allowed, site D denied, as the reviews tested it.
export const DENY_D = { rules: [{ sites: ['localhost'], deny: ['all'] }] };

// A browser whose host enforces DENY_D; fixture pages name D as {{DENIED_ORIGIN}}.
export async function startDenyingD(h, name, { caps = null, extraBrowserArgs = [] } = {}) {
  const policy = path.join(await h.tempDir(`tb-e2e-${name}-`), 'policy.json');
  await fsp.writeFile(policy, JSON.stringify(DENY_D));
  const env = await startPageBrowser(h, { name, caps, extraBrowserArgs, env: { TABBRIDGE_POLICY: policy } });
  env.web.vars.DENIED_ORIGIN = env.web.localhostOrigin;
  return env;
}
