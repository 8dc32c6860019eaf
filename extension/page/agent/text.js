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
  // word joiners, BOM, tag characters, variation selectors other than the
  // text and emoji ones (U+FE00-FE0D, U+E0100-E01EF: each can spell a byte
  // after any letter). Joiners (U+200C/D) and U+FE0E/F stay, one at a time:
  // Indic and Persian words and emoji sequences need them; a run of them
  // shows nothing and could spell anything.
  const INVISIBLE = /[\u00ad\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]|\udb40[\udd00-\uddef]|(?:\ufe00|\ufe01|\ufe02|\ufe03|\ufe04|\ufe05|\ufe06|\ufe07|\ufe08|\ufe09|\ufe0a|\ufe0b|\ufe0c|\ufe0d)/g;
  const SELECTOR_AFTER_INVISIBLE = /(?<=\ufe0e|\ufe0f|\u200c|\u200d)(?:\ufe0e|\ufe0f)+/g; // a selector selects what shows
  const JOINER_RUN = /([\u200c\u200d])[\u200c\u200d]+/g;
  const JOINERY = /\u200c|\u200d|\ufe0e|\ufe0f/;
  const oneAtATime = (s) => (JOINERY.test(s) ? s.replace(SELECTOR_AFTER_INVISIBLE, '').replace(JOINER_RUN, '$1') : s);
  // Page text that spells one of our ref tokens ("[ref=e12]") would name
  // another element than the one it stands beside; in page text the bracket
  // becomes a parenthesis, so only the lines' own refs read as refs.
  const REF_TOKEN = /\[(\s*ref\s*=)/gi;
  const defang = (s) => s.replace(REF_TOKEN, '($1');
  const collapse = (s) => defang(oneAtATime(String(s ?? '').replace(INVISIBLE, '')).replace(/\s+/g, ' ').trim());
  // generated: text-cut (page text cut on whole code points)
  function cutEnd(s, end) {
    if (end >= s.length) return s.length;
    const c = s.charCodeAt(end - 1);
    let e = c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
    while (e > 0 && s.charCodeAt(e - 1) === 0x200d) e--;
    return e;
  }
  function cut(s, max) {
    return s.length > max ? `${s.slice(0, cutEnd(s, max - 1))}…` : s;
  }
  // end generated (codegen/generate.mjs, from extension/worker/text_cut.js)
  const quote = (s) => (/["\\]/.test(s) ? `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `"${s}"`);

  agent.text = { collapse, cut, cutEnd, defang, quote, NAME_MAX: 80, VALUE_MAX: 80, TEXT_MAX: 160 };
})(globalThis.__tabbridgeAgent ??= {});
