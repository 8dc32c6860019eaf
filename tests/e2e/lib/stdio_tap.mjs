// A stdio tap between an MCP client and a server, to see what the real
// Claude Code sends the shim and when: `node stdio_tap.mjs <log file> --
// <command> [args…]` spawns the command with this process's environment,
// passes stdin and stdout through unchanged, byte for byte, and appends one
// line per newline-delimited message to the log file: `<ms since epoch, with
// fractions> <in|out> <the message as sent>` (in: client to server). The
// server's stderr goes to this process's stderr. Exits with the server's
// code; ends the server when the client closes stdin. readTap() parses such
// a log. Used by lib/claude_code.mjs (runClaude's `tap`).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** This script's path, to run it as the MCP server's command. */
export const STDIO_TAP = fileURLToPath(import.meta.url);

/** The messages of a tap log: [{at, dir: 'in'|'out', msg (parsed, or the raw text)}], in order. */
export function readTap(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+(?:\.\d+)?) (in|out) (.*)$/.exec(line);
    if (!m) continue;
    let msg = m[3];
    try {
      msg = JSON.parse(m[3]);
    } catch {
      /* kept as text */
    }
    out.push({ at: Number(m[1]), dir: m[2], msg });
  }
  return out;
}

function main(argv) {
  const sep = argv.indexOf('--');
  if (sep !== 1 || argv.length < 3) {
    process.stderr.write('usage: node stdio_tap.mjs <log file> -- <command> [args…]\n');
    process.exit(2);
  }
  const logFd = fs.openSync(argv[0], 'a');
  const now = () => (performance.timeOrigin + performance.now()).toFixed(1);
  // One log line per complete message; a partial line waits for its end.
  const logger = (dir) => {
    let pending = '';
    return (chunk) => {
      pending += chunk.toString('utf8');
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl).replace(/\r$/, '');
        pending = pending.slice(nl + 1);
        if (line.trim()) fs.writeSync(logFd, `${now()} ${dir} ${line}\n`);
      }
    };
  };
  const child = spawn(argv[2], argv.slice(3), { stdio: ['pipe', 'pipe', 'inherit'] });
  const logIn = logger('in');
  const logOut = logger('out');
  process.stdin.on('data', (chunk) => {
    logIn(chunk);
    child.stdin.write(chunk);
  });
  process.stdin.on('end', () => child.stdin.end());
  child.stdout.on('data', (chunk) => {
    logOut(chunk);
    process.stdout.write(chunk);
  });
  child.stdin.on('error', () => {});
  process.stdout.on('error', () => {});
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    fs.closeSync(logFd);
    process.exit(code ?? (signal ? 128 : 1));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
