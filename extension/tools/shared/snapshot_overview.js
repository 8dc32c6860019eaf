// The first page of a snapshot too long for one answer (a table of 10,000
// rows): the page's outline (landmarks, headings, frames) and what is on
// screen, each with the container lines it sits in, in document order, "…"
// where lines are left out. The cursor then walks the whole page in document
// order from its first line. Pure: tests/js load it without a browser.

// A container line: `- role:` or `- role "name":` (names are quoted, so page
// text cannot make one; a text line is `- text: …`).
const CONTAINER = /^ *- [a-z]+(?: "(?:[^"\\]|\\.)*")?:$/;
const LANDMARK = /^ *- (?:banner|navigation|contentinfo|complementary|search|form|region|dialog|alertdialog|iframe)\b/;
const HEADING = /^ *- heading "/;
const FOLD_HEAD = /^ *- \d+ items like(?: \[ref=\w+\])?:$/; // a folded run (page/agent/fold.js): its template goes with it
const SMALL_LANDMARK_LINES = 12; // lines inside a landmark shown whole when there is room

export const isOutline = (line) => HEADING.test(line) || (CONTAINER.test(line) && LANDMARK.test(line));
const indentOf = (line) => {
  let d = 0;
  while (line.charCodeAt(d) === 32) d++;
  return d;
};

// lines: the snapshot's lines; onScreen: indexes of the lines on screen;
// budget: characters the page may take.
// -> {lines: what to show, cut: whether some of the outline or screen did not fit}
export function overview(lines, onScreen, budget) {
  const n = lines.length;
  // parent[i]: the container line that holds line i, -1 at the top; end[i]:
  // the line after container i's last. Each line read once here: the page
  // sets the lines' number and depth (100 nested landmarks over 100,000
  // lines cost the service worker 36 s when each landmark scanned its own).
  const parent = new Int32Array(n);
  const indent = new Int32Array(n);
  const end = new Int32Array(n).fill(n);
  const stack = [];
  for (let i = 0; i < n; i++) {
    const line = lines[i];
    const d = indentOf(line);
    indent[i] = d;
    while (stack.length && indent[stack[stack.length - 1]] >= d) end[stack.pop()] = i;
    parent[i] = stack.length ? stack[stack.length - 1] : -1;
    if (line.endsWith(':') && (CONTAINER.test(line) || FOLD_HEAD.test(line))) stack.push(i);
  }
  // A run's template lines: shown with its header.
  const templateOf = (j) => {
    const t = [];
    if (!lines[j].endsWith(':') || !FOLD_HEAD.test(lines[j])) return t;
    const inner = `${' '.repeat(indent[j] + 2)}- `;
    for (let k = j + 1; k < n && lines[k].startsWith(inner); k++) t.push(k);
    return t;
  };
  const chosen = new Uint8Array(n);
  let size = 0;
  let cut = false;
  // Line i and the containers around it that are not shown yet, if they fit
  // (each may bring one "…" line after it: counted in).
  const take = (i) => {
    let cost = 0;
    const add = [];
    for (let j = i; j >= 0 && !chosen[j]; j = parent[j]) {
      add.push(j);
      cost += lines[j].length + indent[j] + 6;
      for (const k of templateOf(j)) {
        if (chosen[k] || k === i) continue;
        add.push(k);
        cost += lines[k].length + 1;
      }
    }
    if (size + cost > budget) return false;
    for (const j of add) chosen[j] = 1;
    size += cost;
    return true;
  };
  for (const i of [...onScreen].sort((a, b) => a - b)) {
    if (!take(i)) {
      cut = true;
      break;
    }
  }
  if (!cut) {
    for (let i = 0; i < n; i++) {
      if (!chosen[i] && isOutline(lines[i]) && !take(i)) {
        cut = true;
        break;
      }
    }
  }
  // A small landmark (a site's navigation, a search form) is shown whole.
  if (!cut) {
    for (let i = 0; i < n; i++) {
      if (!chosen[i] || end[i] - i - 1 > SMALL_LANDMARK_LINES || !LANDMARK.test(lines[i]) || !CONTAINER.test(lines[i])) continue;
      for (let j = i + 1; j < end[i]; j++) if (!chosen[j]) take(j);
    }
  }
  const out = [];
  for (let i = 0; i < n; i++) {
    if (chosen[i]) out.push(lines[i]);
    else if (i === 0 || chosen[i - 1]) out.push(`${' '.repeat(indent[i])}…`);
  }
  return { lines: out, cut };
}
