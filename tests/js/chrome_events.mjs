// Stand-ins for chrome.* events in the worker modules' unit tests: each
// records its listeners by name, and fire(name, ...args) calls them as Chrome
// would. Also the tab events every per-tab module listens to.
export function chromeEvents() {
  const listeners = new Map();
  const event = (name) => ({
    addListener(fn) {
      if (!listeners.has(name)) listeners.set(name, []);
      listeners.get(name).push(fn);
    },
    removeListener() {},
  });
  const fire = (name, ...args) => { for (const fn of listeners.get(name) ?? []) fn(...args); };
  return { event, fire };
}

export const TAB_EVENTS = ['onCreated', 'onUpdated', 'onRemoved', 'onReplaced', 'onActivated', 'onHighlighted',
  'onMoved', 'onAttached', 'onDetached'];
