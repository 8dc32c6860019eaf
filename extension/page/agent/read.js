// The page agent's reading, for read_page: the page (or an element) as
// markdown of its main content, plain text, its links (with the refs the
// snapshot gave them), facts about it (info) or outer HTML; and the user's
// selection.
//
// readPage {mode, selector|ref+localRef, sameOrigin, include, exclude, offset, maxChars} ->
//   {url, title, body, total, offset, nextOffset|null, count?, totalItems?, info?}
//   or {url, title, error} (bad selector, no match)
// selection {} -> {text, url} | {text: '', secret: true, url}
(function (agent) {
  'use strict';

  const { isSecret, isSecretMarkup } = agent.roles;
  const MASK = '•••';

  // The outer HTML of `top` with every secret masked (readPage's html mode).
  // Live fields are judged as the page shows them (isSecret); fields inside
  // <template> content and <noscript> markup by their markup alone.
  function maskedHtml(top) {
    const fields = (el) => [...(el.matches('input, textarea') ? [el] : []), ...el.querySelectorAll('input, textarea')];
    const live = fields(top);
    const secret = live.map((el) => (el.localName === 'input' ? el.hasAttribute('value') : el.textContent !== '') && isSecret(el));
    const unrendered = top.matches('template, noscript') || !!top.querySelector('template, noscript');
    if (!secret.includes(true) && !unrendered) return top.outerHTML;
    const copy = top.cloneNode(true);
    const copied = fields(copy); // the same fields, in the same order (template content is not cloned into them)
    secret.forEach((s, i) => { if (s && copied[i]) mask(copied[i]); });
    maskUnrendered(copy);
    return copy.outerHTML;
  }

  function mask(el) {
    if (el.localName === 'input') el.setAttribute('value', MASK);
    else el.textContent = MASK;
  }

  // Masks secret fields by their markup inside every <template>'s content and
  // every <noscript>'s markup under `root` (nested ones included); how many
  // it masked. An inert <template> parses the noscript markup: nothing in it
  // runs or loads.
  function maskUnrendered(root) {
    let n = 0;
    const found = [...(root.matches?.('template, noscript') ? [root] : []), ...root.querySelectorAll('template, noscript')];
    for (const el of found) {
      if (el.localName === 'template') {
        n += maskMarkup(el.content) + maskUnrendered(el.content);
        continue;
      }
      const inert = document.createElement('template');
      inert.innerHTML = el.textContent;
      const masked = maskMarkup(inert.content) + maskUnrendered(inert.content);
      if (masked > 0) el.textContent = inert.innerHTML;
      n += masked;
    }
    return n;
  }

  // Masks the secret fields of a fragment by their markup; how many it masked.
  function maskMarkup(fragment) {
    let n = 0;
    for (const el of fragment.querySelectorAll('input, textarea')) {
      const hasValue = el.localName === 'input' ? el.hasAttribute('value') : el.textContent !== '';
      if (!hasValue || !isSecretMarkup(el)) continue;
      mask(el);
      n++;
    }
    return n;
  }

  function readPage({ mode, selector, ref, localRef, sameOrigin = false, include, exclude, offset = 0, maxChars = 20000 }) {
    const out = { url: location.href, title: document.title };
    const norm = (s) => String(s ?? '').replace(/\s+/g, ' ').trim();

    let root = document.body || document.documentElement;
    if (ref) {
      // A ref from a snapshot: that element, or the folded item it lies in.
      const r = agent.registry.resolve({ ref, localRef });
      if (r.error) return { ...out, error: r.error, stale: !!r.stale };
      root = agent.snapshot.regionOf(r.el);
    } else if (selector) {
      let el;
      try {
        el = document.querySelector(selector);
      } catch (e) {
        return { ...out, error: `"${selector}" is not a valid CSS selector (${e.message})` };
      }
      if (!el) return { ...out, error: `no element matches selector "${selector}"` };
      root = el;
    }

    // A window of text from offset, at most maxChars, cut at a line break when
    // one is near the end, never inside a surrogate pair.
    function paginate(text) {
      const total = text.length;
      const start = Math.min(Math.max(0, offset), total);
      let end = Math.min(total, start + maxChars);
      if (end < total) {
        const nl = text.lastIndexOf('\n', end);
        if (nl > start + maxChars * 0.5) end = nl + 1;
        const c = text.charCodeAt(end - 1);
        if (c >= 0xd800 && c <= 0xdbff) end -= 1;
      }
      return { body: text.slice(start, end), total, offset: start, nextOffset: end < total ? end : null };
    }

    // --- info -------------------------------------------------------------------
    if (mode === 'info') {
      const se = document.scrollingElement || document.documentElement;
      return {
        ...out,
        info: {
          url: location.href,
          title: document.title,
          readyState: document.readyState,
          contentType: document.contentType,
          lang: document.documentElement.lang || null,
          charset: document.characterSet,
          referrer: document.referrer || null,
          lastModified: document.lastModified,
          viewport: { width: window.innerWidth, height: window.innerHeight, devicePixelRatio: window.devicePixelRatio },
          scroll: { x: Math.round(window.scrollX), y: Math.round(window.scrollY), width: se.scrollWidth, height: se.scrollHeight },
          counts: {
            links: document.links.length,
            images: document.images.length,
            forms: document.forms.length,
            iframes: document.querySelectorAll('iframe, frame').length,
            headings: document.querySelectorAll('h1, h2, h3, h4, h5, h6').length,
          },
          textLength: (document.body?.innerText ?? '').length,
        },
      };
    }

    // --- html -------------------------------------------------------------------
    // Secrets stay out of what the model reads: the value attribute of a
    // secret field (roles.js isSecret: a password input, a field whose
    // autocomplete names a password, card or one-time code, one the page masks
    // with -webkit-text-security) — a server-filled form, a framework that
    // mirrors the value into it —, a secret textarea's text, and the same in
    // markup the page does not render: <template> content and <noscript>
    // (its markup is text while scripts run). The live value is never in
    // outerHTML. The page is copied only when it holds one.
    if (mode === 'html') {
      const top = selector || ref ? root : document.documentElement;
      return { ...out, ...paginate(maskedHtml(top)) };
    }

    // --- text -------------------------------------------------------------------
    if (mode === 'text') {
      const text = String(root.innerText ?? root.textContent ?? '')
        .replace(/[ \t\u00a0]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      return { ...out, ...paginate(text) };
    }

    // --- links ------------------------------------------------------------------
    if (mode === 'links') {
      // Refs the snapshot already gave these links (registry.js; none are minted here).
      const reg = agent.registry.current();
      const refFor = reg
        ? (el) => { const n = reg.byEl.get(el); return n === undefined ? null : `e${n}`; }
        : null;
      // include/exclude: a substring of the href, where * stands for any run of characters.
      const pattern = (p) => (p ? new RegExp(String(p).split('*').map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')) : null);
      const inc = pattern(include);
      const exc = pattern(exclude);
      const seen = new Set();
      const lines = [];
      for (const a of root.querySelectorAll('a[href], area[href]')) {
        const href = a.href;
        if (!href || /^javascript:/i.test(href)) continue;
        if ((inc && !inc.test(href)) || (exc && exc.test(href))) continue;
        if (sameOrigin) {
          try {
            if (new URL(href).origin !== location.origin) continue;
          } catch {
            continue;
          }
        }
        let text = norm(a.innerText || a.getAttribute('aria-label') || a.title || a.querySelector('img[alt]')?.alt || a.alt);
        text = agent.text.cut(text, 201);
        const key = `${href}\u0000${text}`;
        if (seen.has(key)) continue;
        seen.add(key);
        let ref = null;
        try {
          ref = refFor ? refFor(a) : null;
        } catch { /* no ref */ }
        const label = (text || '(no text)').replace(/([[\]])/g, '\\$1');
        lines.push(`- [${label}](${href.replace(/([()])/g, '\\$1')})${ref ? ` [ref=${ref}]` : ''}`);
      }
      const page = paginate(lines.length ? `${lines.join('\n')}\n` : '');
      // Whole lines only: count the items shown and the items in total.
      return { ...out, ...page, count: page.body.split('\n').filter(Boolean).length, totalItems: lines.length };
    }

    // --- markdown -----------------------------------------------------------------
    const CHROME_ROLES = /^(navigation|banner|contentinfo|complementary|search)$/;
    const NOISE = /(^|[\s_-])(cookie|consent|sidebar|advert|ads|share|social|newsletter|breadcrumbs?)($|[\s_-])/i;
    const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'frame', 'object',
      'embed', 'head', 'meta', 'link', 'button', 'input', 'select', 'textarea', 'option', 'datalist', 'audio',
      'video', 'map']);
    const BLOCK = new Set(['p', 'div', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside', 'figure',
      'figcaption', 'form', 'fieldset', 'legend', 'details', 'summary', 'address', 'center', 'dialog', 'hgroup',
      'search', 'body', 'html', 'caption', 'dl']);

    // A button that shows and hides a part of the page (aria-expanded: an
    // accordion's header, an FAQ's question, an API operation's summary) is
    // content, as a <summary> is; other buttons are controls, left out.
    const isDisclosure = (el) => el.localName === 'button' && el.hasAttribute('aria-expanded');

    function isChrome(el) {
      const tag = el.localName;
      if (tag === 'nav' || tag === 'aside' || tag === 'footer') return true;
      if (tag === 'header' && !el.closest('article, main, [role="main"]')) return true;
      const role = el.getAttribute('role');
      if (role && CHROME_ROLES.test(role)) return true;
      const idc = `${el.id || ''} ${typeof el.className === 'string' ? el.className : ''}`;
      return idc.trim() !== '' && NOISE.test(idc);
    }

    function hidden(el) {
      if (el.hidden || el.getAttribute('aria-hidden') === 'true') return true;
      if (typeof el.checkVisibility === 'function') return !el.checkVisibility();
      return false;
    }

    function pickMain() {
      const mains = [...document.querySelectorAll('main, [role="main"]')].filter((m) => !hidden(m));
      if (mains.length) return mains.reduce((a, b) => ((b.innerText || '').length > (a.innerText || '').length ? b : a));
      const articles = [...document.querySelectorAll('article')].filter((a) => !hidden(a) && !a.parentElement?.closest('article'));
      if (articles.length === 1) return articles[0];
      if (articles.length > 1) return document.body;
      // The densest block: paragraphs vote for their parent (and half for the grandparent).
      const scores = new Map();
      let n = 0;
      for (const p of document.body?.querySelectorAll('p, pre, blockquote, td, li') ?? []) {
        if (++n > 5000) break;
        const len = norm(p.textContent).length;
        if (len < 25) continue;
        const score = 1 + Math.min(len / 100, 3) + (p.textContent.match(/[,.;]/g)?.length ?? 0) / 10;
        const parent = p.parentElement;
        if (!parent) continue;
        scores.set(parent, (scores.get(parent) ?? 0) + score);
        const gp = parent.parentElement;
        if (gp) scores.set(gp, (scores.get(gp) ?? 0) + score / 2);
      }
      let best = null;
      let bestScore = 0;
      for (const [el, s] of scores) {
        if (el === document.body || el === document.documentElement || isChrome(el)) continue;
        const text = norm(el.innerText).length || 1;
        const linkText = [...el.querySelectorAll('a')].reduce((sum, a) => sum + norm(a.innerText).length, 0);
        const adjusted = s * (1 - Math.min(linkText / text, 1));
        if (adjusted > bestScore) {
          best = el;
          bestScore = adjusted;
        }
      }
      const bodyText = norm(document.body?.innerText).length;
      if (best && norm(best.innerText).length >= bodyText * 0.5) return best;
      return document.body || document.documentElement;
    }

    const auto = !selector && !ref;
    if (auto) root = pickMain();

    const codeBlocks = [];
    const fence = (code, lang) => {
      const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((m) => m.length));
      const ticks = '`'.repeat(longest + 1);
      codeBlocks.push(`${ticks}${lang}\n${code.replace(/\n+$/, '')}\n${ticks}`);
      return `\n\n\u0000${codeBlocks.length - 1}\u0000\n\n`;
    };
    const wrap = (c, mark) => {
      const t = c.trim();
      if (!t) return c;
      return `${/^\s/.test(c) ? ' ' : ''}${mark}${t}${mark}${/\s$/.test(c) ? ' ' : ''}`;
    };
    const block = (c) => {
      const t = c.trim();
      return t ? `\n\n${t}\n\n` : '';
    };
    const oneLine = (c) => c.replace(/\s*\n\s*/g, ' ').trim();

    // Whether acc ends a line is kept aside: testing the growing string itself
    // (a regex on it) flattens it at every child, quadratic in a list of
    // 10,000 rows.
    function children(node) {
      let acc = '';
      let lineStart = true;
      for (let child = (node.shadowRoot || node).firstChild; child; child = child.nextSibling) {
        let piece = convert(child);
        if (!piece) continue;
        if (lineStart) piece = piece.replace(/^ +/, '');
        if (!piece) continue;
        acc += piece;
        lineStart = piece.endsWith('\n');
      }
      return acc;
    }

    function list(el, ordered) {
      const items = [];
      let i = Number(el.getAttribute('start')) || 1;
      for (const li of el.children) {
        if (li.localName !== 'li' || hidden(li)) continue;
        const body = children(li).replace(/\n{2,}/g, '\n').trim();
        if (!body) continue;
        const marker = ordered ? `${i++}. ` : '- ';
        const pad = ' '.repeat(marker.length);
        items.push(marker + body.split('\n').map((l, k) => (k === 0 ? l : pad + l)).join('\n'));
      }
      return items.length ? `\n\n${items.join('\n')}\n\n` : '';
    }

    function table(el) {
      const rows = [...el.rows].filter((r) => !hidden(r));
      const cellText = (c) => oneLine(children(c)).replace(/\|/g, '\\|');
      const grid = rows.map((r) => [...r.cells].map(cellText));
      const width = Math.max(0, ...grid.map((r) => r.length));
      // Layout tables (one column or one row) read better as plain blocks.
      if (width < 2 || grid.length < 2) return block(rows.map((r) => [...r.cells].map((c) => children(c)).join(' ')).join('\n\n'));
      const line = (cells) => `| ${Array.from({ length: width }, (_, k) => cells[k] ?? '').join(' | ')} |`;
      const caption = el.caption ? `${oneLine(children(el.caption))}\n\n` : '';
      return `\n\n${caption}${[line(grid[0]), line(Array(width).fill('---')), ...grid.slice(1).map(line)].join('\n')}\n\n`;
    }

    function convert(node) {
      if (node.nodeType === 3) return node.data.replace(/\s+/g, ' ');
      if (node.nodeType !== 1) return '';
      const el = node;
      const tag = el.localName;
      if ((SKIP.has(tag) && !isDisclosure(el)) || hidden(el)) return '';
      if (auto && el !== root && isChrome(el)) return '';
      switch (tag) {
        case 'button': return block(oneLine(children(el))); // a disclosure's: what it opens is about
        case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': {
          const t = oneLine(children(el));
          return t ? `\n\n${'#'.repeat(Number(tag[1]))} ${t}\n\n` : '';
        }
        case 'br': return '\n';
        case 'slot': {
          const assigned = el.assignedNodes({ flatten: true });
          return assigned.length ? assigned.map(convert).join('') : children(el);
        }
        case 'hr': return '\n\n---\n\n';
        case 'strong': case 'b': return wrap(children(el), '**');
        case 'em': case 'i': return wrap(children(el), '_');
        case 'del': case 's': case 'strike': return wrap(children(el), '~~');
        case 'code': case 'kbd': case 'samp': {
          if (el.closest('pre')) return el.textContent;
          const t = el.textContent.replace(/\s+/g, ' ');
          if (!t.trim()) return '';
          const ticks = t.includes('`') ? '``' : '`';
          return `${ticks}${t}${ticks}`;
        }
        case 'pre': {
          const cls = `${el.className} ${el.querySelector('code')?.className ?? ''}`;
          const lang = (/(?:language|lang)-([\w+#-]+)/.exec(cls) ?? [])[1] ?? '';
          return fence(el.innerText || el.textContent, lang);
        }
        case 'a': {
          const inner = oneLine(children(el));
          const href = el.href;
          const text = inner || norm(el.getAttribute('aria-label') || el.title);
          if (!text) return '';
          if (typeof href !== 'string' || !href || /^javascript:/i.test(href)) return text;
          return `[${text}](${href.replace(/([()])/g, '\\$1')})`;
        }
        case 'img': {
          const alt = norm(el.alt);
          if (!alt) return '';
          const src = el.currentSrc || el.src || '';
          return /^data:/.test(src) || !src ? `[image: ${alt}]` : `![${alt}](${src})`;
        }
        case 'ul': case 'menu': return list(el, false);
        case 'ol': return list(el, true);
        case 'li': return block(children(el));
        case 'blockquote': {
          const t = children(el).trim();
          return t ? `\n\n${t.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n')}\n\n` : '';
        }
        case 'table': return table(el);
        case 'dt': return `\n\n**${oneLine(children(el))}**\n`;
        case 'dd': return `\n${children(el).trim()}\n\n`;
        case 'tr': case 'td': case 'th': case 'thead': case 'tbody': case 'tfoot': return block(children(el));
        default:
          return BLOCK.has(tag) ? block(children(el)) : children(el);
      }
    }

    let md = convert(root);
    md = md
      .replace(/ +\n/g, '\n')
      .replace(/\n[ \t]+\n/g, '\n\n')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/ {2,}(?=\S)/g, (m, i, s) => (s[i - 1] === '\n' || i === 0 ? m : ' '))
      .trim()
      // eslint-disable-next-line no-control-regex -- \u0000 marks the code-block placeholders
      .replace(/\u0000(\d+)\u0000/g, (_, k) => codeBlocks[Number(k)]);
    return { ...out, ...paginate(md ? `${md}\n` : ''), root: describeRoot(root) };

    function describeRoot(el) {
      if (el === document.body || el === document.documentElement) return 'body';
      let s = el.localName;
      if (el.id) s += `#${el.id}`;
      else if (el.getAttribute('role')) s += `[role=${el.getAttribute('role')}]`;
      return s;
    }
  }

  // selection mode, every frame: the selected text (or the selected part of the
  // focused input / textarea). A selection inside a password field (or one the
  // page masks, -webkit-text-security) is not given: {secret: true}.
  function selection() {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (active && isSecret(active)) return { text: '', secret: true, url: location.href };
    if (active && (active.localName === 'textarea' || active.localName === 'input') &&
        typeof active.selectionStart === 'number' && active.selectionEnd > active.selectionStart) {
      return { text: active.value.slice(active.selectionStart, active.selectionEnd), url: location.href };
    }
    return { text: String(window.getSelection?.() ?? ''), url: location.href };
  }

  agent.read = { readPage, selection };
})(globalThis.__tabbridgeAgent ??= {});
