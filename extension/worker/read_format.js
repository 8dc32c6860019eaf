// Pure helpers of the read-and-observe page tools (and the console capture):
// opaque pagination cursors and text formatting (times, truncation). No chrome: tests/js unit-tests them.

import { cutEnd } from './text_cut.js';

// ---------------------------------------------------------------------------
// Cursors: opaque to the model; base64url of a small JSON object.

export function encodeCursor(obj) {
  const bytes = new TextEncoder().encode(JSON.stringify(obj));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeCursor(cursor) {
  try {
    const b64 = cursor.replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const obj = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
    if (obj && typeof obj === 'object') return obj;
  } catch { /* fall through */ }
  return null;
}

// ---------------------------------------------------------------------------
// Formatting

const pad = (n, w = 2) => String(n).padStart(w, '0');

// Local wall-clock time of an epoch-ms timestamp: HH:MM:SS.mmm
export function clock(ms) {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

// A byte count as people read it: 512 B, 1.0 KB, 3.4 MB ("? B" when unknown).
export const byteSize = (n) => (n === null || n === undefined ? '? B'
  : n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

export function truncate(s, max) {
  s = String(s ?? '');
  if (s.length <= max) return s;
  const end = cutEnd(s, max);
  return `${s.slice(0, end)}… [${s.length - end} more chars]`;
}
