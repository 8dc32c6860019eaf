// The one cut of page text (issue 29): at most `max` UTF-16 units, "…"
// marking the cut, ending on whole text — never between the two halves of a
// surrogate pair (half of one is not text: the message carrying it could not
// be read), nor on a zero-width joiner left hanging. Page scripts cannot
// import: codegen/generate.mjs copies cutEnd and cut into their
// "generated: text-cut" blocks, so the worker and every page script cut alike.
// Only comparisons, charCodeAt and slice: nothing a page could have replaced
// that the scripts in its world do not already use.

// The end of a cut at UTF-16 index `end`, moved back onto a code point
// boundary (and before a trailing zero-width joiner).
export function cutEnd(s, end) {
  if (end >= s.length) return s.length;
  const c = s.charCodeAt(end - 1);
  let e = c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
  while (e > 0 && s.charCodeAt(e - 1) === 0x200d) e--;
  return e;
}

export function cut(s, max) {
  return s.length > max ? `${s.slice(0, cutEnd(s, max - 1))}…` : s;
}
