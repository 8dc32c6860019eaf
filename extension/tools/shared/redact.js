// Credentials out of what the network tools show (network_requests,
// network_request): header values, query values and form or JSON fields
// whose names say they carry one are masked, and page text is fenced so that
// it cannot pass for tabbridge's own words. No chrome: tests/js unit-tests it.

import { MASK } from './secrets.js';

// Names of headers, query keys and fields that carry credentials. Wide on
// purpose: masking an `author` field costs less than showing a token.
const SECRET_NAME = /pass|pwd|secret|token|auth|session|csrf|xsrf|api[-_]?key|apikey|^key$|[-_]key$|signature|^sig$|otp|cookie|credential|^code$|bearer|jwt|cvc|cvv/i;
// Short words that are secrets only as a whole word of the name (`pin`, not
// `ping` or `spinner`): user_pw, pinCode, card-cvc2.
const SECRET_WORDS = new Set(['pw', 'pin', 'pincode', 'csc']);
// A name's words: split at - _ . and spaces and where camelCase starts a word (privateKey → private, key).
const wordsOf = (name) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
export const isSecretName = (name) => {
  const s = String(name ?? '');
  if (SECRET_NAME.test(s)) return true;
  const words = wordsOf(s);
  // ...Key in any spelling (privateKey, signingKey, x-encryption-key), but not keyboard or keyId.
  return words.some((w) => SECRET_WORDS.has(w)) || (words.length > 1 && words.at(-1) === 'key');
};

// A JSON Web Token wherever it shows (a path, a header of any name, a field
// of any name, a response): three base64url parts, the first a JSON object's
// (`{"` is `eyJ`); the signature may be empty (alg none).
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g;
export const maskJwts = (text) => String(text ?? '').replace(JWT, MASK);

export const redactHeaders = (headers) =>
  (headers ?? []).map((h) => ({ name: h.name, value: isSecretName(h.name) ? MASK : maskJwts(h.value ?? '') }));

const decode = (s) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

// k=v pairs of a query string or a urlencoded body, secret ones masked; the rest untouched.
const redactPairs = (text) => text.replace(/(^|&)([^=&#]+)=([^&#]*)/g, (m, sep, key) => (isSecretName(decode(key)) ? `${sep}${key}=${MASK}` : m));

export function redactUrl(url) {
  const s = maskJwts(url);
  const q = s.indexOf('?');
  if (q < 0) return s;
  const hash = s.indexOf('#', q);
  const query = hash < 0 ? s.slice(q + 1) : s.slice(q + 1, hash);
  return `${s.slice(0, q + 1)}${redactPairs(query)}${hash < 0 ? '' : s.slice(hash)}`;
}

function redactJson(value, depth = 0) {
  if (depth > 50 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactJson(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretName(k) && v !== null && typeof v !== 'object' ? MASK : redactJson(v, depth + 1)]));
}

const URLENCODED = /^[^\s=&]+=[^\s&]*(?:&[^\s=&]+=[^\s&]*)*$/;

// A body's text with its secret fields masked: JSON (when it parses whole),
// urlencoded forms; anything else as it is.
export function redactBody(text, contentType = '') {
  const t = String(text ?? '');
  const type = String(contentType).toLowerCase();
  if (/json/.test(type) || /^\s*[[{]/.test(t)) {
    try {
      return maskJwts(JSON.stringify(redactJson(JSON.parse(t))));
    } catch { /* not JSON after all (or cut short): as text */ }
  }
  if (type.includes('x-www-form-urlencoded') || URLENCODED.test(t.trim())) return maskJwts(redactPairs(t));
  return maskJwts(t);
}

// The values redaction masks in a request — its secret headers, query
// values and body fields — to be masked wherever else they show (a response
// that echoes them). Short ones (under 4 characters) would mask too much.
export function secretValues({ headers = [], url = '', body = '', contentType = '' } = {}) {
  const found = new Set();
  const add = (v) => {
    if (typeof v === 'string' && v.length >= 4) found.add(v);
  };
  for (const h of headers ?? []) if (isSecretName(h.name)) add(h.value);
  const pairs = (text) => {
    for (const m of String(text).matchAll(/(?:^|[?&])([^=&#]+)=([^&#]*)/g)) if (isSecretName(decode(m[1]))) add(decode(m[2]));
  };
  const q = String(url).indexOf('?');
  if (q >= 0) pairs(String(url).slice(q).replace(/#.*$/s, ''));
  const walk = (v, depth = 0) => {
    if (depth > 50 || v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (isSecretName(k) && (typeof x === 'string' || typeof x === 'number')) add(String(x));
      else walk(x, depth + 1);
    }
  };
  try {
    walk(JSON.parse(body));
  } catch {
    if (String(contentType).includes('x-www-form-urlencoded') || URLENCODED.test(String(body).trim())) pairs(`?${body}`);
  }
  return found;
}

// Invisible and direction-changing characters, which could hide text from
// whoever reads the transcript (the same set the host strips from page text).
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g;

// Page text in a code fence longer than any run of backticks in it.
export function fenced(text) {
  const clean = String(text ?? '').replace(INVISIBLE, '');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${clean}\n${fence}`;
}
