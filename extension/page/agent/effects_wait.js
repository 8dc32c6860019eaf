// The page agent's wait for an action's effects, read right after the input:
// nothing waits a fixed time for what can be observed. By then the handlers
// the input ran are done, with their microtasks — and so is the render of a
// framework that renders in them (React's discrete updates, Vue, Svelte,
// Preact, Lit, Angular's change detection). So an action that has changed
// the DOM already, on a page that did not change by itself before it
// (changes.js), is read at once. Any other action may have
// its effect on the way (a render put off to the next frame, a transition,
// a timer, a promise chain across tasks): it is read once the DOM has gone quietMs
// without a change, counted from the later of the wait's start and the last
// change, at most maxMs (a page that changes for ever). The worker waits for
// the rest where it can be observed — the fetches the action started, also
// when they are done already (their answers are read again after them), a
// navigation; a timer of 500 ms is not waited for (snapshot and wait_for see
// what it did).
(function (agent) {
  'use strict';

  // Resolves to {waitedFor} once the page settled after an action, as above.
  // c: the change watch (changes.js arm: {last}); changed: the action changed
  // the DOM already, on a page quiet until it (changes.js after decides);
  // start: when the wait began.
  function untilSettled(c, { changed, quietMs = 20, maxMs = 1000, start = performance.now() }) {
    if (changed) return Promise.resolve({ waitedFor: 'nothing' });
    return new Promise((done) => {
      const check = () => {
        const now = performance.now();
        const wait = Math.min(quietMs - (now - Math.max(start, c.last)), maxMs - (now - start));
        if (wait <= 0) done({ waitedFor: 'quiet' });
        else setTimeout(check, wait + 1);
      };
      check();
    });
  }

  agent.effectsWait = { untilSettled };
})(globalThis.__tabbridgeAgent ??= {});
