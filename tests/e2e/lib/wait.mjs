// Waiting without sleeping as synchronisation: waitFor() polls a condition
// with a deadline and says, on timeout, what it waited for and what it last
// saw.

import { EVENT_TIMEOUT_MS } from './config.mjs';
import { brief } from './asserts.mjs';

const tick = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls fn until it returns a truthy value, and returns that value. fn may be
 * async; a throw counts as "not yet" (the last error is reported on timeout).
 * On timeout throws `Timed out after Nms waiting for <what>` with the last
 * value/error seen.
 */
export async function waitFor(fn, { timeoutMs = EVENT_TIMEOUT_MS, intervalMs = 50, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastValue;
  let lastError;
  for (;;) {
    try {
      lastValue = await fn();
      lastError = undefined;
      if (lastValue) return lastValue;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const detail = lastError
        ? `last error: ${lastError?.stack || lastError}`
        : `last value: ${brief(lastValue)}`;
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; ${detail}`);
    }
    await tick(intervalMs);
  }
}
