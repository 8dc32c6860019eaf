// extension/worker/chrome_errors.js and time.js: the extension's one reading of
// Chrome's error messages (what each caller words its answer from) and the
// one timeout, whose rejection that reading knows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { chromeErrorKind, tabGone, TimedOut } from '../../extension/worker/chrome_errors.js';
import { withTimeout } from '../../extension/worker/time.js';
import { ErrorCode } from '../../extension/worker/protocol.js';

describe('chromeErrorKind', () => {
  const cases = [
    ['No tab with id: 12.', 'tabGone'],
    ['No tab with given id 12.', 'tabGone'],
    ['No target with given id found', 'tabGone'],
    ['Target closed', 'tabGone'],
    ['Frame with ID 0 is showing error page', 'errorPage'],
    ['No frame with id 7 in tab with id 3', 'frameGone'],
    ['No document with id ABC in tab 3', 'frameGone'],
    ['The frame was removed.', 'frameGone'],
    ['Cannot access a chrome:// URL', 'notScriptable'],
    ['Cannot access contents of the page. Extension manifest must request permission to access the respective host.', 'notScriptable'],
    ['The extensions gallery cannot be scripted.', 'notScriptable'],
    ['Something else entirely', null],
  ];
  for (const [message, kind] of cases) {
    it(`"${message}" -> ${kind}`, () => {
      assert.equal(chromeErrorKind(new Error(message)), kind);
      assert.equal(chromeErrorKind(message), kind); // a bare string (a rejection that is no Error)
    });
  }

  it('withTimeout rejects with TimedOut, which reads as a timeout', async () => {
    const never = new Promise(() => {});
    await assert.rejects(withTimeout(never, 5, 'the probe'), (e) => {
      assert.ok(e instanceof TimedOut);
      assert.equal(e.message, 'the probe timed out after 5 ms');
      assert.equal(chromeErrorKind(e), 'timeout');
      return true;
    });
    assert.equal(await withTimeout(Promise.resolve(7), 1000), 7);
  });

  it('tabGone is TAB_NOT_FOUND with what to do', () => {
    const e = tabGone(4);
    assert.equal(e.code, ErrorCode.TAB_NOT_FOUND);
    assert.equal(e.message, 'tab 4 is gone — call list_tabs');
  });
});
