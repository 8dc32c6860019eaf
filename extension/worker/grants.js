// The site grants the person gave (host.state's `grants`, docs/protocol.md
// "The popup"): as the worker keeps them, and the params of `grant.revoke`,
// the popup's Revoke button. Pure.

// A grant of host.state as the worker keeps it, or null: {site, access: [..],
// scope: 'session'|'always', sessionId (null: none), client}.
export function normaliseGrant(g) {
  if (!g || typeof g.site !== 'string' || !g.site || !['session', 'always'].includes(g.scope)) return null;
  return {
    site: g.site,
    access: Array.isArray(g.access) ? g.access.filter((a) => typeof a === 'string') : [],
    scope: g.scope,
    sessionId: Number.isInteger(g.sessionId) ? g.sessionId : null,
    client: typeof g.client === 'string' ? g.client : '',
  };
}

// grant.revoke's params: {site, scope, sessionId?} (a session grant names its session).
export function revokeParams({ site, scope, sessionId }) {
  if (typeof site !== 'string' || !site) throw new Error('revoke needs a site (a string)');
  if (scope !== 'session' && scope !== 'always') throw new Error('revoke needs a scope: "session" or "always"');
  if (sessionId !== undefined && sessionId !== null && !Number.isInteger(sessionId)) {
    throw new Error('revoke: sessionId must be an integer');
  }
  return { site, scope, ...(Number.isInteger(sessionId) ? { sessionId } : {}) };
}
