// Service-worker state that must outlive a worker restart (MV3 stops idle or
// crashed workers; memory goes with them), kept in chrome.storage.session:
// cleared when the browser quits or the extension reloads, never on disk.
//
//   const store = tabStore('console', (tabId) => value | null)
//   store.dirty(tabId)      write the tab's value soon (debounced: one write per
//                           DEBOUNCE_MS for all dirty tabs, not one per entry)
//   await store.flush()     write what is dirty now: before a tool answers, so
//                           what a tool reported survives a restart right after
//   await store.load()      Map(tabId -> value) of every stored tab (open tabs only);
//                           writes wait for it, so a restarted worker's first
//                           write never replaces what it has not read back yet
//   store.remove(tabId)
//   restoring(promise)      hello waits for it: no request meets half-restored state
//   restored()              resolves once every restoring() promise settled

const DEBOUNCE_MS = 250;

// The newest items of list (oldest first) whose JSON fits in maxBytes; null when none.
export function newestWithin(list, maxBytes) {
  if (!list?.length) return null;
  let bytes = 0;
  let i = list.length;
  while (i > 0) {
    bytes += JSON.stringify(list[i - 1]).length + 1;
    if (bytes > maxBytes) break;
    i--;
  }
  return i < list.length ? list.slice(i) : null;
}
const pendingRestores = [];

export function restoring(promise) {
  pendingRestores.push(promise.catch((e) => console.info(`tabbridge: restore failed: ${e?.message ?? e}`)));
}

export const restored = () => Promise.all(pendingRestores);

export function tabStore(name, valueOf) {
  const prefix = `tabbridge.${name}.`;
  const dirty = new Set();
  let timer = null;
  let writing = Promise.resolve();

  async function write() {
    clearTimeout(timer);
    timer = null;
    if (!dirty.size) return;
    const set = {};
    const remove = [];
    for (const tabId of dirty) {
      const value = valueOf(tabId);
      if (value === null || value === undefined) remove.push(prefix + tabId);
      else set[prefix + tabId] = value;
    }
    dirty.clear();
    try {
      if (remove.length) await chrome.storage.session.remove(remove);
      if (Object.keys(set).length) await chrome.storage.session.set(set);
    } catch (e) {
      console.info(`tabbridge: saving ${name} failed: ${e.message}`); // quota: the memory copy still answers
    }
  }

  const flush = () => (writing = writing.then(write));

  return {
    dirty(tabId) {
      dirty.add(tabId);
      if (!timer) timer = setTimeout(flush, DEBOUNCE_MS);
    },
    flush,
    remove(tabId) {
      dirty.delete(tabId);
      chrome.storage.session.remove(prefix + tabId).catch(() => {});
    },
    load() {
      const loading = readAll();
      writing = writing.then(() => loading.catch(() => {}));
      return loading;
    },
  };

  async function readAll() {
    const [all, tabs] = await Promise.all([chrome.storage.session.get(null), chrome.tabs.query({})]);
    const open = new Set(tabs.map((t) => t.id));
    const out = new Map();
    const stale = [];
    for (const [key, value] of Object.entries(all)) {
      if (!key.startsWith(prefix)) continue;
      const tabId = Number(key.slice(prefix.length));
      if (open.has(tabId)) out.set(tabId, value);
      else stale.push(key); // closed while no worker ran
    }
    if (stale.length) chrome.storage.session.remove(stale).catch(() => {});
    return out;
  }
}
