// How an action's answer quotes the page's words, and the clauses that say
// what text a click changed (page/agent/text_changes.js reads it): the
// target's new name (`now says "Liked" (was "Like")`) and the rest of the
// page (`text changed: "12 likes" → "13 likes", new "Saved"`). Page text is
// quoted, one line, cut at 80 characters (show), as every clause quotes it;
// the text clause is cut at MAX_TEXT_CLAUSE characters whatever the page
// did. Pure: the unit tests import it (tests/js/text_changes.test.mjs).

import { cut } from '../../worker/text_cut.js';

// The most the text clause adds to an answer, in characters.
export const MAX_TEXT_CLAUSE = 480;

export const show = (v) => {
  const s = String(v ?? '').replace(/\s+/g, ' ');
  return `"${cut(s, 80)}"`;
};

// The target's new name, as a clause ('' for none).
export function renamedClause(renamed) {
  if (!renamed || typeof renamed !== 'object') return '';
  return `now says ${show(renamed.now)} (was ${show(renamed.was)})`;
}

// The text the action changed, as a clause ('' for none): each item
// `"was" → "now"`, `new "now"` (text that came) or `gone "was"` (text that
// went), in document order, then how many more were left out.
export function textChangesClause(texts) {
  const items = Array.isArray(texts?.items) ? texts.items : [];
  if (!items.length) return '';
  const head = 'text changed: ';
  const parts = [];
  let used = head.length;
  let left = items.length + (Number.isInteger(texts.more) ? texts.more : 0);
  for (const { was, now } of items) {
    const part = !was ? `new ${show(now)}` : !now ? `gone ${show(was)}` : `${show(was)} → ${show(now)}`;
    // Room for the tail ("and N more …") kept.
    if (used + part.length + 2 > MAX_TEXT_CLAUSE - 48) break;
    parts.push(part);
    used += part.length + 2;
    left--;
  }
  if (!parts.length) return '';
  let more = '';
  if (left > 0) more = ` and ${left}${texts.andMore ? '+' : ''} more (snapshot shows them)`;
  else if (texts.andMore) more = ' and more (snapshot shows them)';
  return `${head}${parts.join(', ')}${more}`;
}
