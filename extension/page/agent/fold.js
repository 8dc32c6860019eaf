// The page agent's folding of repeated structure for the snapshot: a run of
// sibling elements whose lines have one shape (the same roles, states and
// nesting; only names, texts and links differ: a table's rows, a list of
// cards) is told once as a template, then one line per item with its refs
// and what varies. Every element keeps its ref. Pure (lines in, lines out):
// tests/js load it without a browser; tools/shared/snapshot_unfold.js reads
// it back.
//
//   - 3 items like [ref=e9]:              the run; the ref is the element holding it
//     - text: Order {1} · {2}             one item's lines, {n} where the items differ
//     - button "Cancel order {1}" [ref]   [ref]: each item's own ref, in order
//     e12: 1|packed                       an item: its refs, then {1}|{2}…
//     e13: 2|shipped
//     e14: 3|open
//
// An item's refs that follow on (three or more) are written as a range:
// `e137-140` is e137 e138 e139 e140 (a card of four elements: 19 bytes
// become 8, a sixth of a long list's answer).
// A value that holds "|" or starts with a quote is written as a JSON string.
(function (agent) {
  'use strict';

  const FOLD_MIN = 3; // items in a run before it is folded
  const FOLD_GAIN = 0.8; // folded only when at most this share of the bytes
  const LEAD_WORDS = 2;
  // A quoted name or value, or a ref and the link target after it.
  const PART = /"(?:[^"\\]|\\.)*"|\[ref=(e\d+)\]( (?!shows ")[^\s"]+)?/g;
  const TEXT_LINE = /^( *)- text: (.*)$/;
  const UNNAMED = /^( *- (?!text:)[a-z]+)(?= \[|:?$)/;
  const SLOT = '\u0000';
  const PAGE_MARKS = /\[ref\]|\{\d+\}/;

  // ['e5', 'e6', 'e7', 'e9'] -> 'e5-7 e9': three or more refs that follow on as a range.
  const RANGE_MIN = 3;
  function refRanges(refs) {
    const num = (r) => Number(r.slice(1));
    const out = [];
    for (let i = 0; i < refs.length;) {
      let j = i;
      while (j + 1 < refs.length && num(refs[j + 1]) === num(refs[j]) + 1) j++;
      if (j - i + 1 >= RANGE_MIN) {
        out.push(`${refs[i]}-${num(refs[j])}`);
      } else {
        out.push(...refs.slice(i, j + 1));
      }
      i = j + 1;
    }
    return out.join(' ');
  }

  // A snapshot line -> {skel, vals, refs}: skel is the line with each value
  // replaced by SLOT and each ref by [ref]. null: a line that cannot fold (a
  // frame's placeholder, a fold's own lines).
  function parse(line) {
    if (typeof line !== 'string') return null;
    // Page text that reads like the fold's own marks ("[ref]", "{1}") would
    // shift which ref the model takes for which element: such a line never folds.
    if (PAGE_MARKS.test(line)) return null;
    const t = TEXT_LINE.exec(line);
    if (t) return { skel: `${t[1]}- text: ${SLOT}`, vals: [t[2]], refs: [] };
    if (!/^ *(?:- |…$)/.test(line) || / items like(?: \[ref=e\d+\])?:$/.test(line)) return null;
    const vals = [];
    const refs = [];
    // An element without a name reads as one with an empty name: a run's
    // items keep one shape when some have a name (unfold drops `""`).
    const named = line.replace(UNNAMED, '$1 ""');
    const skel = named.replace(PART, (part, ref, href) => {
      if (!ref) {
        vals.push(part.slice(1, -1));
        return `"${SLOT}"`;
      }
      refs.push(ref);
      if (href === undefined) return '[ref]';
      vals.push(href.slice(1));
      return `[ref] ${SLOT}`;
    });
    return { skel, vals, refs };
  }

  // An item's lines (its first line's indentation is the base) -> {key, lines: parsed} | null.
  function shapeOf(lines, base) {
    const parsed = [];
    for (const l of lines) {
      const p = parse(l);
      if (!p || !l.startsWith(base)) return null;
      p.skel = p.skel.slice(base.length);
      parsed.push(p);
    }
    return { key: parsed.map((p) => p.skel).join('\n'), lines: parsed };
  }

  const ITEM_LINES_MAX = 60;
  const lookPart = (l) => {
    if (typeof l !== 'string') return '\u0002'; // a frame's placeholder: parse refuses it
    const q = l.indexOf('"');
    return q < 0 ? l.slice(0, l.indexOf(':') + 1 || 12) : l.slice(0, q);
  };
  const lookOf = (lines) => `${lines.length}\u0001${lookPart(lines[0])}\u0001${lookPart(lines[lines.length - 1])}`;

  const TOKEN = /(\s+|[/·|,:;()[\]-])/;
  const tokens = (s) => s.split(TOKEN).filter((x) => x !== '');

  // The values of one slot across the items -> [{lit} | {col: values}]: what
  // all share is literal; each stretch that differs is a column.
  function slotTemplate(values) {
    if (values.every((v) => v === values[0])) return [{ lit: values[0] }];
    const toks = values.map(tokens);
    const n = Math.min(...toks.map((t) => t.length));
    let pre = 0;
    while (pre < n && toks.every((t) => t[pre] === toks[0][pre])) pre++;
    let suf = 0;
    while (suf < n - pre && toks.every((t) => t[t.length - 1 - suf] === toks[0][toks[0].length - 1 - suf])) suf++;
    const out = [];
    const lit = (s) => {
      if (!s) return;
      if (out.length && out[out.length - 1].lit !== undefined) out[out.length - 1].lit += s;
      else out.push({ lit: s });
    };
    lit(toks[0].slice(0, pre).join(''));
    const mids = toks.map((t) => t.slice(pre, t.length - suf));
    const width = mids[0].length;
    if (mids.every((m) => m.length === width)) {
      for (let i = 0; i < width;) {
        if (mids.every((m) => m[i] === mids[0][i])) {
          lit(mids[0][i]);
          i++;
          continue;
        }
        let j = i + 1; // a stretch: varying tokens, with what they all share between them
        while (j < width && !(mids.every((m) => m[j] === mids[0][j]) && (j + 1 >= width || mids.every((m) => m[j + 1] === mids[0][j + 1])))) j++;
        out.push({ col: mids.map((m) => m.slice(i, j).join('')) });
        i = j;
      }
    } else {
      // Words of different counts: the first LEAD_WORDS words each a column
      // of their own (a method, a path that another slot repeats), then the rest.
      const words = mids.map((m) => m.join('').split(/( +)/));
      const lead = Math.min(LEAD_WORDS, Math.floor((Math.min(...words.map((w) => w.length)) - 1) / 2));
      for (let w = 0; w < lead; w++) {
        out.push({ col: words.map((ws) => ws[2 * w]) });
        lit(' ');
      }
      out.push({ col: words.map((ws) => ws.slice(2 * lead).join('')) });
    }
    lit(toks[0].slice(toks[0].length - suf).join(''));
    return out;
  }

  const writeValue = (v) => (v.includes('|') || v.startsWith('"') || v.includes('\\"') ? JSON.stringify(v) : v);

  // One run: items = [{shape, ...}] (same key), pad: their indentation,
  // ref: the element holding them. -> the folded lines, or null when folding
  // would not pay.
  function foldRun(items, pad, ref) {
    const first = items[0].shape.lines;
    const cols = []; // [values per item]
    const colIndex = new Map(); // joined values -> placeholder number (equal columns share one)
    const placeholder = (values) => {
      const k = values.join('\u0001');
      let n = colIndex.get(k);
      if (n === undefined) {
        cols.push(values);
        n = cols.length;
        colIndex.set(k, n);
      }
      return `{${n}}`;
    };
    const template = first.map((p, li) => {
      let v = 0;
      return p.skel.split(SLOT).reduce((line, piece) => {
        const values = items.map((it) => it.shape.lines[li].vals[v]);
        v++;
        return line + slotTemplate(values).map((part) => (part.lit !== undefined ? part.lit : placeholder(part.col))).join('') + piece;
      }).replace(/^( *- [a-z]+) ""/, '$1');
    });
    const out = [`${pad}- ${items.length} items like${ref ? ` [ref=${ref}]` : ''}:`];
    for (const t of template) out.push(`${pad}  ${t}`);
    for (let i = 0; i < items.length; i++) {
      const refs = refRanges(items[i].shape.lines.flatMap((p) => p.refs));
      const vals = cols.map((c) => writeValue(c[i])).join('|');
      if (refs || vals) out.push(`${pad}  ${refs}${cols.length ? `: ${vals}` : ''}`);
    }
    const before = items.reduce((n, it) => n + it.bytes, 0);
    const after = out.reduce((n, l) => n + l.length + 1, 0);
    return after <= before * FOLD_GAIN ? out : null;
  }

  // Finds runs among a parent's children: segs = [{lines, el}] in order
  // (lines: that child's snapshot lines; an empty one is skipped over; a
  // null one breaks runs), pad: the indentation of their lines; refOf(el)
  // the ref of the parent. -> [{from, to, lines}] (indexes into segs) to
  // replace, in order.
  function findRuns(segs, pad, parentRef) {
    const runs = [];
    let run = [];
    const close = () => {
      if (run.length >= FOLD_MIN) {
        const lines = foldRun(run, pad, parentRef());
        if (lines) runs.push({ from: run[0].index, to: run[run.length - 1].index, lines, members: run.map((r) => r.index) });
      }
      run = [];
    };
    // A cheap look first (line count, how the first and last lines start):
    // only children that look like a neighbour are parsed, and none of more
    // than ITEM_LINES_MAX lines (a page's big sections are not items).
    const looks = segs.map((s) => (s.lines && s.lines.length && s.lines.length <= ITEM_LINES_MAX ? lookOf(s.lines) : null));
    const alike = (i, j) => j >= 0 && j < segs.length && looks[i] !== null && looks[i] === looks[j];
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      if (s.lines && !s.lines.length) continue;
      let near = false; // a neighbour (past empty children) looks the same
      for (const step of [-1, 1]) {
        let j = i + step;
        while (j >= 0 && j < segs.length && segs[j].lines && !segs[j].lines.length) j += step;
        near ||= alike(i, j);
      }
      const shape = near && shapeOf(s.lines, pad);
      if (!shape) {
        close();
        continue;
      }
      if (run.length && run[0].shape.key !== shape.key) close();
      run.push({ index: i, shape, bytes: s.lines.reduce((n, l) => n + l.length + 1, 0) });
    }
    close();
    return runs;
  }

  agent.fold = { findRuns, foldRun, parse, shapeOf, slotTemplate, FOLD_MIN };
})(globalThis.__tabbridgeAgent ??= {});
