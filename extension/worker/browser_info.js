// Which Chrome-family browser this is, for `hello`. navigator.userAgentData
// lists brands: the product's own (if it reports one), the "Chromium" engine
// brand and a GREASE brand ("Not A;Brand"), in random order.

const PRODUCTS = ['Google Chrome', 'Microsoft Edge', 'Brave', 'Opera', 'Vivaldi'];

let cached;

export const isHeadless = (userAgent, brands = []) =>
  /\bHeadlessChrome\//.test(userAgent) || brands.some((b) => b.brand === 'HeadlessChrome');

// Resolves to {name, version, userAgent, headless}; computed once per worker.
// headless: the browser shows no window a person could see, so nobody can
// answer the person's surface (worker/person_surface.js). Chromium's
// --headless (new and old) says so in its user agent ("HeadlessChrome/156…"),
// in the service worker too.
export function browserInfo() {
  cached ??= detect();
  return cached;
}

async function detect() {
  const uaData = navigator.userAgentData;
  const brands = uaData?.brands ?? [];
  // Older Brave builds hide their brand but expose navigator.brave.
  const name = PRODUCTS.find((p) => brands.some((b) => b.brand === p))
    ?? (navigator.brave ? 'Brave' : 'Chromium');

  // The full version is a high-entropy value; the (reduced) UA string only
  // carries "156.0.0.0", so it is the fallback.
  const high = await uaData?.getHighEntropyValues(['fullVersionList']).catch(() => undefined);
  const list = high?.fullVersionList ?? [];
  const version = (list.find((b) => b.brand === name) ?? list.find((b) => b.brand === 'Chromium'))?.version
    ?? navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]
    ?? '';
  return { name, version, userAgent: navigator.userAgent, headless: isHeadless(navigator.userAgent, brands) };
}
