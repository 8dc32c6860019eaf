// The popup's pure parts without a browser: host.state as the worker keeps it
// (worker/host_state.js normaliseState), the toolbar badge for a state
// (badgeFor) and the popup's "N s ago" (popup/popup.js ago).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { badgeFor, normaliseState } from '../../extension/worker/host_state.js';
import { ago } from '../../extension/popup/popup.js';

const STATE = {
  host: { version: '0.1.0', pid: 42 },
  policy: { path: '/p.json', state: 'none', rules: 0 },
  sessions: [
    { id: 1, client: { name: 'claude-code', version: '2.0' }, focusedTabId: 5, readOnly: false,
      lastTool: { name: 'click', at: 1000 } },
    { id: 2, client: { name: 'cursor', version: '' }, focusedTabId: null, readOnly: true, lastTool: null },
  ],
};

describe('normaliseState', () => {
  it('keeps a well-formed host.state as it is', () => {
    assert.deepEqual(normaliseState(STATE), STATE);
  });

  it('drops sessions without an integer id and reads odd fields as absent', () => {
    const odd = normaliseState({
      host: 'x',
      sessions: [{ id: '1' }, null, { id: 3, client: 'x', focusedTabId: '5', readOnly: 1, lastTool: { name: 7, at: 1 } }],
    });
    assert.deepEqual(odd, {
      host: { version: '', pid: null },
      policy: null,
      sessions: [{ id: 3, client: { name: '', version: '' }, focusedTabId: null, readOnly: false, lastTool: null }],
    });
    assert.deepEqual(normaliseState(undefined).sessions, []);
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
