// The person's surface as the headful tests find it (extension/surface/):
// its DevTools page target, how long a call that waits for the person may
// take, and the person's pace at a button.

import { extensionWorker } from './devtools.mjs';

export const SURFACE_PATH = '/surface/surface.html';
// A call that waits for the person: longer than the host's wait for an answer (kGrantAskTimeoutMs, 50 s).
export const WAITS_FOR_PERSON = Object.freeze({ timeoutMs: 70_000 });
// The person's pace (extension/surface/arming.js REST_MS is 400): how long a person
// holds the pointer on a button before clicking. Not a wait for the browser.
export const PERSON_REST_MS = 700;

/** The surface page's URL in the browser on DevTools port `port`. */
export const surfaceUrlOf = async (port) => `chrome-extension://${new URL((await extensionWorker(port)).url).host}${SURFACE_PATH}`;

// The surface's DevTools page target (title "tabbridge…"): not a blocked
// attempt of a page to open its URL, which keeps the URL on an error page.
export const isSurface = (target, surfaceUrl) => target.url.startsWith(surfaceUrl) && target.title.startsWith('tabbridge');
