// The page agent's text helpers: whitespace cleanup, cutting to a length,
// quoting for the snapshot's lines. Pure (no DOM).
//
// Every file of the page agent is a classic script that chrome.scripting
// injects into the page's isolated world (page/agent/install.js lists them);
// each adds its part to one namespace object, globalThis.__tabbridgeAgent,
// inside a function so that injecting it again only replaces that part.
(function (agent) {
  'use strict';

  const collapse = (s) => String(s ?? '').replace(/\s+/g, ' ').trim();
  const cut = (s, max) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
  const quote = (s) => (/["\\]/.test(s) ? `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `"${s}"`);

  agent.text = { collapse, cut, quote, NAME_MAX: 80, VALUE_MAX: 80, TEXT_MAX: 160 };
})(globalThis.__tabbridgeAgent ??= {});
