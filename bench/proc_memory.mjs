// Memory of a browser's process tree from /proc (Linux): RSS, PSS and private
// dirty memory of each process (smaps_rollup) with what the process is (its
// --type=, the utility's sub-type, whether a renderer hosts extensions).
// Summed RSS counts shared libraries once per process; PSS splits shared
// pages among all their sharers — other Chromiums on the machine included, so
// it moves with them. Private dirty pages (heaps, V8, caches) are what the
// process itself costs; private *clean* pages are mostly chromium's code that
// no other process happens to have touched (the browser process's count of
// them swings by ~50 MiB with what the other Chromiums run), so they are left out.
import fs from 'node:fs';

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

// Chromium's child processes rewrite their title: one NUL-free string of space-separated arguments.
export const cmdline = (pid) => read(`/proc/${pid}/cmdline`).split(/[\0 ]/).filter(Boolean);

const parentOf = (pid) => {
  // Field 4 of stat; the command (field 2) is in parentheses and may hold spaces.
  const stat = read(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

const allPids = () => fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);

export function descendants(root) {
  const children = new Map();
  for (const pid of allPids()) {
    const parent = parentOf(pid);
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(pid);
  }
  const found = [];
  const walk = (pid) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

// The browser process (no --type=) among the descendants of a server's process.
export function browserUnder(serverPid) {
  return descendants(serverPid).find((pid) => {
    const args = cmdline(pid);
    return args.length > 0 && /chrom/i.test(args[0]) && !args.some((a) => a.startsWith('--type='));
  });
}

const flag = (args, name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

export function processKind(args) {
  if (!/chrom/i.test(args[0] ?? '')) return (args[0] ?? '?').split('/').pop(); // e.g. our native host
  const type = flag(args, 'type');
  if (!type) return 'browser';
  if (type === 'utility') return `utility ${flag(args, 'utility-sub-type') ?? '?'}`;
  if (type === 'renderer' && args.includes('--extension-process')) return 'renderer (extensions)';
  if (type === 'renderer' && args.includes('--top-chrome-webui')) return 'renderer (browser UI: WebUI omnibox popup)';
  if (type === 'zygote') return args.includes('--no-zygote-sandbox') ? 'zygote (unsandboxed)' : 'zygote';
  return type;
}

const kib = (text, field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);

// [{pid, kind, rssKiB, pssKiB, dirtyKiB}] for these processes, heaviest first.
export function memoryOf(pids) {
  return pids
    .map((pid) => {
      const rollup = read(`/proc/${pid}/smaps_rollup`);
      const dirtyKiB = kib(rollup, 'Private_Dirty');
      return { pid, kind: processKind(cmdline(pid)), rssKiB: kib(rollup, 'Rss'), pssKiB: kib(rollup, 'Pss'), dirtyKiB };
    })
    .filter((p) => p.rssKiB > 0)
    .sort((a, b) => b.dirtyKiB - a.dirtyKiB);
}

// The browser and its descendants.
export const treeMemory = (browserPid) => memoryOf([browserPid, ...descendants(browserPid)]);

// The MCP server the client spawned and its descendants, without the browser's tree
// (Playwright MCP and chrome-devtools-mcp start their browser as their child).
export function serverMemory(serverPid, browserPid) {
  const browser = new Set([browserPid, ...descendants(browserPid)]);
  return memoryOf([serverPid, ...descendants(serverPid)].filter((pid) => !browser.has(pid)))
    .map((p) => ({ ...p, kind: (cmdline(p.pid)[0] ?? '?').split('/').pop() })); // not a Chromium process
}
