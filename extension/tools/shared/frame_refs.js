// A cross-origin frame's snapshot lines with the frame's prefix on every ref:
// `[ref=e3]` -> `[ref=f1e3]`, a folded item's refs (`e3 e4: …`,
// page/agent/fold.js) likewise, and both ends of a range (`e5-8` ->
// `f1e5-f1e8`): an end without the prefix would read as a ref of the top
// document, another element. Pure: tests/js load it without a browser.

const ITEM_REFS = /^( *)(e\d+(?:-\d+)?(?: e\d+(?:-\d+)?)*)(?=:|$)/;

export const withPrefix = (line, prefix) => (prefix
  ? line.replace(/\[ref=(e\d+)\]/g, `[ref=${prefix}$1]`).replace(ITEM_REFS, (m, pad, refs) =>
    pad + refs.replace(/e(\d+)(?:-(\d+))?/g, (r, from, to) => (to ? `${prefix}e${from}-${prefix}e${to}` : `${prefix}${r}`)))
  : line);
