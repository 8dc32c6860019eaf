// Reads a snapshot's folded runs (page/agent/fold.js) back into the lines
// they stand for: each item's lines with its refs and values in place. Pure:
// the benches and tests read folded snapshots with it; what the model reads
// stays folded.
//
//   - 3 items like [ref=e9]:            ->  - text: Order 1 · packed
//     - text: Order {1} · {2}               - button "Cancel order 1" [ref=e12]
//     - button "Cancel order {1}" [ref]     …
//     e12: 1|packed

export const FOLD_HEAD = /^( *)- (\d+) items like(?: \[ref=([\w]+)\])?:$/;

// "1|packed|\"a|b\"" -> ['1', 'packed', 'a|b']
export function splitValues(s) {
  const out = [];
  let i = 0;
  for (;;) {
    if (s[i] === '"') {
      let j = i + 1;
      while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      out.push(JSON.parse(s.slice(i, j + 1)));
      i = j + 1;
    } else {
      const j = s.indexOf('|', i);
      out.push(s.slice(i, j < 0 ? s.length : j));
      i = j < 0 ? s.length : j;
    }
    if (i >= s.length) return out;
    i++; // the "|"
  }
}

// 'e5-7' -> ['e5', 'e6', 'e7'], a frame's 'f1e5-f1e7' -> ['f1e5', 'f1e6', 'f1e7'] (a range of refs,
// page/agent/fold.js, tools/snapshot.js withPrefix); any other ref as it is.
function expandRange(ref) {
  const m = /^(\w*?e)(\d+)-(?:\1)?(\d+)$/.exec(ref);
  if (!m) return [ref];
  const out = [];
  for (let n = Number(m[2]); n <= Number(m[3]); n++) out.push(`${m[1]}${n}`);
  return out;
}

// An item's line -> {refs, values}.
export function parseItem(line) {
  const body = line.trimStart();
  const colon = body.indexOf(': ');
  const refsPart = colon < 0 ? body : body.slice(0, colon);
  const refs = refsPart ? refsPart.split(' ').flatMap(expandRange) : [];
  return { refs, values: colon < 0 ? [] : splitValues(body.slice(colon + 2)) };
}

// The lines of a snapshot text with every folded run written out in full
// (the run's own header line is kept out).
export function unfold(text) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const head = FOLD_HEAD.exec(lines[i]);
    if (!head) {
      out.push(lines[i]);
      continue;
    }
    const inner = `${head[1]}  `;
    const template = [];
    while (i + 1 < lines.length && lines[i + 1].startsWith(`${inner}- `)) template.push(lines[++i].slice(inner.length));
    let items = 0;
    const fill = ({ refs, values }) => {
      let r = 0;
      for (const t of template) {
        const line = t.replace(/\[ref\]/g, () => `[ref=${refs[r++]}]`).replace(/\{(\d+)\}/g, (m, n) => values[n - 1] ?? m);
        out.push(head[1] + line.replace(/^( *- [a-z]+) ""/, '$1')); // an item without a name
      }
      items++;
    };
    while (i + 1 < lines.length && lines[i + 1].startsWith(inner) && !lines[i + 1].startsWith(`${inner}- `) &&
      !/^ /.test(lines[i + 1].slice(inner.length))) {
      fill(parseItem(lines[++i]));
    }
    // Items with neither refs nor values have no line: the count says how many.
    if (items === 0) for (let n = 0; n < +head[2]; n++) fill({ refs: [], values: [] });
  }
  return out;
}
