// The popup's pure parts without a browser: host.state as the worker keeps it
// (worker/host_state.js normaliseState), the toolbar badge for a state
// (badgeFor), the popup's "N s ago" (popup/popup.js ago), its line for a site
// grant (grantText) and the params of grant.revoke (worker/grants.js).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { badgeFor, normaliseState } from '../../extension/worker/host_state.js';
import { ago, grantText, policyText } from '../../extension/popup/popup.js';
import { revokeParams } from '../../extension/worker/grants.js';

const STATE = {
  host: { version: '0.1.0', pid: 42 },
  policy: { path: '/p.json', state: 'none', rules: 0 },
  sessions: [
    { id: 1, client: { name: 'claude-code', version: '2.0' }, focusedTabId: 5, readOnly: false,
      lastTool: { name: 'click', at: 1000 } },
    { id: 2, client: { name: 'cursor', version: '' }, focusedTabId: null, readOnly: true, lastTool: null },
  ],
  grants: [
    { site: 'github.com', access: ['read', 'navigate'], scope: 'always', sessionId: null, client: '' },
    { site: 'example.org', access: ['read', 'act'], scope: 'session', sessionId: 1, client: 'claude-code' },
  ],
  networkLog: false,
};

describe('normaliseState', () => {
  it('keeps a well-formed host.state as it is', () => {
    assert.deepEqual(normaliseState(STATE), STATE);
  });

  it('drops sessions without an integer id and reads odd fields as absent', () => {
    const odd = normaliseState({
      host: 'x',
      sessions: [{ id: '1' }, null, { id: 3, client: 'x', focusedTabId: '5', readOnly: 1, lastTool: { name: 7, at: 1 } }],
      grants: [null, { site: '' , scope: 'always' }, { site: 'a.test', scope: 'forever' },
        { site: 'b.test', scope: 'session', access: ['read', 7], sessionId: '2', client: 3 }],
    });
    assert.deepEqual(odd, {
      host: { version: '', pid: null },
      policy: null,
      sessions: [{ id: 3, client: { name: '', version: '' }, focusedTabId: null, readOnly: false, lastTool: null }],
      grants: [{ site: 'b.test', access: ['read'], scope: 'session', sessionId: null, client: '' }],
      networkLog: false,
    });
    assert.deepEqual(normaliseState(undefined).sessions, []);
    assert.deepEqual(normaliseState({ grants: 'x' }).grants, []);
  });
});

describe('badgeFor', () => {
  it('counts the attached sessions while connected', () => {
    const b = badgeFor(normaliseState(STATE));
    assert.equal(b.text, '2');
    assert.match(b.title, /connected — 2 agents attached/);
  });

  it('is empty with no session, and says connected', () => {
    const b = badgeFor(normaliseState({ ...STATE, sessions: [] }));
    assert.equal(b.text, '');
    assert.match(b.title, /connected — no agent attached/);
  });

  it('is cleared without a host, and the title says why', () => {
    const b = badgeFor(null, 'Specified native messaging host not found.');
    assert.equal(b.text, '');
    assert.equal(b.title, 'tabbridge: not connected to the host (Specified native messaging host not found.)');
  });
});

describe('ago', () => {
  it('seconds, minutes, hours; never negative', () => {
    assert.equal(ago(10_000, 13_400), '3 s ago');
    assert.equal(ago(0, 125_000), '2 min ago');
    assert.equal(ago(0, 7_300_000), '2 h ago');
    assert.equal(ago(5_000, 1_000), '0 s ago');
  });
});

describe('grants', () => {
  it('a grant is one line: the site, what it allows, and for how long', () => {
    const [always, session] = normaliseState(STATE).grants;
    assert.equal(grantText(always), 'github.com — read, navigate · always');
    assert.equal(grantText(session), 'example.org — read, act · this session (claude-code)');
    assert.equal(grantText({ ...session, client: '', access: [] }), 'example.org · this session 1');
  });

  it('grant.revoke names the site and scope, and the session of a session grant', () => {
    assert.deepEqual(revokeParams({ site: 'github.com', scope: 'always', sessionId: null }),
      { site: 'github.com', scope: 'always' });
    assert.deepEqual(revokeParams({ site: 'example.org', scope: 'session', sessionId: 1 }),
      { site: 'example.org', scope: 'session', sessionId: 1 });
    assert.throws(() => revokeParams({ site: '', scope: 'always' }), /site/);
    assert.throws(() => revokeParams({ site: 'a.test', scope: 'forever' }), /scope/);
    assert.throws(() => revokeParams({ site: 'a.test', scope: 'session', sessionId: '1' }), /sessionId/);
  });
});

describe('policyText', () => {
  it('says what a site no rule names gets: ask, or (a host before "ask") allow', () => {
    assert.equal(policyText({ state: 'none', default: 'ask' }), 'no policy file: agents ask you before they use a site');
    assert.equal(policyText({ state: 'none' }), 'no policy file: agents may read, act and navigate everywhere');
    assert.equal(policyText({ state: 'ok', path: '/p.json', rules: 1, default: 'ask' }),
      '/p.json (1 rule; other sites: agents ask you)');
    assert.equal(policyText({ state: 'ok', path: '/p.json', rules: 2 }), '/p.json (2 rules)');
  });
});
