// The page agent's text helpers: whitespace cleanup, cutting to a length,
// quoting for the snapshot's lines. Pure (no DOM).
//
// Every file of the page agent is a classic script that chrome.scripting
// injects into the page's isolated world (page/agent/install.js lists them);
// each adds its part to one namespace object, globalThis.__tabbridgeAgent,
// inside a function so that injecting it again only replaces that part.
(function (agent) {
  'use strict';

  // Characters that show nothing but cost bytes, or reorder what is shown:
  // zero-width space, soft hyphen, direction marks, embeddings and isolates,
  // word joiners, BOM, tag characters. Joiners (U+200C/D) stay: Indic and
  // Persian words and emoji sequences need them.
  const INVISIBLE = /[\u00ad\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g;
  const collapse = (s) => String(s ?? '').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
  const cut = (s, max) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
  const quote = (s) => (/["\\]/.test(s) ? `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `"${s}"`);

  agent.text = { collapse, cut, quote, NAME_MAX: 80, VALUE_MAX: 80, TEXT_MAX: 160 };
})(globalThis.__tabbridgeAgent ??= {});
