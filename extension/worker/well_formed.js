// What goes out on the native port is well-formed text: a lone surrogate
// (half of a pair — a page's own string, or a cut that split one) becomes
// U+FFFD. Chrome writes one as the JSON escape "\ud83d", which is not
// Unicode: the host would have to guess, and a page string must never be what
// decides whether the browser stays connected (issue 29). Strings only are
// scanned (keys too); a message that needs no change is passed on as it is.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const fix = typeof String.prototype.toWellFormed === 'function'
  ? (s) => (s.isWellFormed() ? s : s.toWellFormed())
  : (s) => s.replace(LONE_SURROGATE, '\uFFFD');

// `value` with every string well-formed: the same value when none needed it,
// else a copy of the arrays and objects on the way to those that did.
export function wellFormed(value) {
  if (typeof value === 'string') return fix(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out = null;
    for (let i = 0; i < value.length; i++) {
      const x = wellFormed(value[i]);
      if (x !== value[i]) (out ??= value.slice())[i] = x;
    }
    return out ?? value;
  }
  let out = null;
  for (const key of Object.keys(value)) {
    const x = wellFormed(value[key]);
    const k = fix(key);
    if (x === value[key] && k === key) continue;
    out ??= { ...value };
    if (k !== key) delete out[key];
    out[k] = x;
  }
  return out ?? value;
}
