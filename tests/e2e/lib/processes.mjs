// Processes, read from /proc: liveness, command line and environment, the
// processes carrying a test's markers (its unique temp dirs) and the
// descendants of a pid; killAndReap() SIGKILLs them and waits until they are
// gone. Only ever processes the harness caused to exist.

import fs from 'node:fs';

import { waitFor } from './wait.mjs';

function readProc(pid, file) {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`);
  } catch {
    return null;
  }
}

function procState(pid) {
  const stat = readProc(pid, 'stat');
  if (!stat) return null; // gone
  const s = stat.toString();
  const close = s.lastIndexOf(')');
  const fields = s.slice(close + 2).split(' ');
  return { state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]) };
}

/** True while pid exists and is not a zombie. */
export function isAlive(pid) {
  const st = procState(pid);
  return !!st && st.state !== 'Z' && st.state !== 'X';
}

export function procCmdline(pid) {
  const b = readProc(pid, 'cmdline');
  return b ? b.toString().split('\0').filter(Boolean) : null;
}

export function procEnviron(pid) {
  const b = readProc(pid, 'environ');
  return b ? b.toString().split('\0').filter(Boolean) : null;
}

/**
 * Pids (other than ours) whose command line contains one of `markers`, or
 * whose environment has a variable whose value is one of them. Our markers
 * are unique temp dirs handed only to processes we spawned, so every match is
 * ours (the browser, its helpers and crashpad, the host Chrome spawned, the
 * shim).
 */
export function findProcsByMarkers(markers) {
  const hits = [];
  if (!markers.length) return hits;
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return hits;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid || pid === 1) continue;
    const cmd = readProc(pid, 'cmdline')?.toString() ?? '';
    let match = markers.some((m) => cmd.includes(m));
    if (!match) {
      const env = procEnviron(pid) ?? [];
      match = env.some((kv) => markers.some((m) => kv.endsWith(`=${m}`)));
    }
    if (match && isAlive(pid)) hits.push(pid);
  }
  return hits;
}

/** All live descendants of `roots` (by parent pid), roots excluded. */
export function findDescendants(roots) {
  const children = new Map();
  let entries = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    /* no /proc */
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const st = procState(Number(name));
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid).push(Number(name));
  }
  const out = [];
  const queue = [...roots];
  while (queue.length) {
    for (const c of children.get(queue.shift()) ?? []) {
      if (c === process.pid || out.includes(c)) continue;
      out.push(c);
      queue.push(c);
    }
  }
  return out.filter(isAlive);
}

export function killQuietly(pid, signal = 'SIGKILL') {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGKILLs `pids` (their whole process group when a pid leads one) and every
 * process matching `markers`, then waits until all of them are gone.
 */
export async function killAndReap({ pids = [], markers = [], timeoutMs = 10_000 } = {}) {
  const targets = new Set();
  // Descendants first (collected before their parents die and they get reparented).
  for (const pid of findDescendants(pids.filter((p) => Number.isInteger(p) && p > 1 && p !== process.pid))) {
    killQuietly(pid);
    targets.add(pid);
  }
  for (const pid of pids) {
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    const st = procState(pid);
    if (!st) continue;
    if (st.pgrp === pid) killQuietly(-pid);
    killQuietly(pid);
    targets.add(pid);
  }
  // Twice: a dying browser may still have spawned a helper after the first scan.
  for (let round = 0; round < 2; round++) {
    for (const pid of findProcsByMarkers(markers)) {
      killQuietly(pid);
      targets.add(pid);
    }
    await waitFor(() => [...targets].every((pid) => !isAlive(pid)), {
      timeoutMs,
      intervalMs: 50,
      what: `processes ${[...targets].join(', ')} to exit after SIGKILL`,
    }).catch((err) => {
      process.stderr.write(`[e2e cleanup] ${err.message}\n`);
    });
  }
  return [...targets];
}

// Last resort when the test process ends without the after() hooks having run
