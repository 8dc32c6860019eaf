// The page agent's names: an element's accessible name (aria-labelledby,
// aria-label, labels, alt, content …), the visible text of a subtree, a short
// description of an element for messages, and a link's href as shown.
(function (agent) {
  'use strict';

  const { collapse, cut, defang, quote, NAME_MAX } = agent.text;
  const { SKIP, inputType, labelsOf, shadowOf, styleOf } = agent.dom;
  const { NAME_FROM_CONTENT, roleOf } = agent.roles;

  // Visible text of a subtree (flat tree, open and closed shadow roots), capped.
  function textOf(root, max = 200) {
    let out = '';
    const walk = (node) => {
      if (out.length > max) return;
      if (node.nodeType === 3) {
        out += node.data;
        return;
      }
      if (node.nodeType !== 1 && node.nodeType !== 11) return;
      if (node.nodeType === 1) {
        const tag = node.localName;
        if (SKIP.has(tag) || tag === 'select' || tag === 'textarea') return;
        if (node !== root) {
          if (node.getAttribute('aria-hidden') === 'true') return;
          const st = styleOf(node);
          if (st.display === 'none' || st.visibility === 'hidden') return;
          const label = node.getAttribute('aria-label');
          if (label) {
            out += ` ${label} `;
            return;
          }
        }
        if (tag === 'img' || (tag === 'input' && inputType(node) === 'image')) {
          out += ` ${node.getAttribute('alt') || ''} `;
          return;
        }
        if (tag === 'input') {
          if (['button', 'submit', 'reset'].includes(inputType(node))) out += ` ${node.value} `;
          return;
        }
        if (tag === 'br') {
          out += ' ';
          return;
        }
        if (tag === 'svg') {
          const t = node.querySelector('title');
          if (t) out += ` ${t.textContent} `;
          return;
        }
      }
      const sr = node.nodeType === 1 ? shadowOf(node) : null;
      const kids = sr ? sr.childNodes : node.localName === 'slot' && node.assignedNodes().length ? node.assignedNodes() : node.childNodes;
      for (const k of kids) walk(k);
      if (node.nodeType === 1 && node !== root && !styleOf(node).display.startsWith('inline')) out += ' ';
    };
    walk(root);
    return collapse(out);
  }

  function byIds(el, attr) {
    const value = el.getAttribute(attr);
    if (!value) return '';
    const ids = value.trim().split(/\s+/).filter(Boolean);
    if (!ids.length) return '';
    const root = el.getRootNode();
    return collapse(ids.map((id) => {
      const t = root.getElementById?.(id) ?? el.ownerDocument.getElementById(id);
      return t ? t.getAttribute('aria-label') || textOf(t) : '';
    }).join(' '));
  }

  // The label's text without the control's own content (a <select> inside a label).
  function labelText(label, control) {
    let out = '';
    const walk = (n) => {
      if (n === control) return;
      if (n.nodeType === 3) out += n.data;
      else if (n.nodeType === 1 && !SKIP.has(n.localName) && n.localName !== 'select' && n.localName !== 'textarea') {
        if (n.localName === 'img') out += ` ${n.getAttribute('alt') || ''} `;
        else for (const k of n.childNodes) walk(k);
      }
    };
    walk(label);
    return collapse(out);
  }

  // {name, fromContent}
  function nameOf(el, role) {
    let n = byIds(el, 'aria-labelledby');
    if (n) return { name: n };
    n = collapse(el.getAttribute('aria-label'));
    if (n) return { name: n };
    const tag = el.localName;
    if (tag === 'input' || tag === 'select' || tag === 'textarea') {
      const t = inputType(el);
      if (tag === 'input' && ['button', 'submit', 'reset'].includes(t)) {
        return { name: collapse(el.value) || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '') };
      }
      if (tag === 'input' && t === 'image') return { name: collapse(el.getAttribute('alt') || el.value || 'Submit') };
      const labels = labelsOf(el).map((l) => labelText(l, el)).filter(Boolean);
      if (labels.length) return { name: labels.join(' ') };
      n = collapse(el.getAttribute('placeholder') || el.getAttribute('title'));
      if (n) return { name: n };
      if (tag === 'input' && t === 'file') return { name: 'Choose file' };
      return { name: '' };
    }
    if (tag === 'img' || tag === 'area') return { name: collapse(el.getAttribute('alt') || el.getAttribute('title')) };
    if (tag === 'iframe' || tag === 'frame') return { name: collapse(el.getAttribute('title') || el.getAttribute('name')) };
    if (tag === 'fieldset') {
      const legend = el.querySelector(':scope > legend');
      if (legend) return { name: textOf(legend) };
    }
    if (tag === 'table') {
      const cap = el.querySelector(':scope > caption');
      if (cap) return { name: textOf(cap) };
    }
    if (NAME_FROM_CONTENT.has(role) || tag === 'summary') {
      n = textOf(el, NAME_MAX * 3);
      if (n) return { name: n, fromContent: true };
    }
    if (el.isContentEditable) {
      n = collapse(el.getAttribute('placeholder') || el.getAttribute('aria-placeholder'));
      if (n) return { name: n };
    }
    return { name: collapse(el.getAttribute('title')) };
  }

  // For messages: role and name (button "Save"), else role and tag#id/.class.
  function describe(el) {
    const role = roleOf(el) || (el.isContentEditable ? 'textbox' : '');
    const { name } = nameOf(el, role || 'clickable');
    if (name) return `${role || el.localName} ${quote(cut(name, 60))}`;
    let tag = el.localName;
    if (el.id) tag += `#${el.id}`;
    else if (typeof el.className === 'string' && el.className.trim()) tag += `.${el.className.trim().split(/\s+/)[0]}`;
    return role ? `${role} (${tag})` : tag;
  }

  // A link's target as the snapshot shows it: path (or #hash) on this origin,
  // the full URL elsewhere, nothing for javascript: links.
  function hrefOf(el, here = location) {
    const raw = el.getAttribute('href');
    if (!raw || /^\s*javascript:/i.test(raw)) return '';
    // A plain fragment of this document (no <base> sending it elsewhere) is
    // shown as written, without parsing a URL (pages with thousands of them).
    if (/^#[\w-]+$/.test(raw) && here === globalThis.location && el.ownerDocument === document && document.baseURI === document.URL) {
      return cut(raw, 80);
    }
    let u;
    try {
      u = new URL(el.href);
    } catch {
      return defang(cut(raw, 80));
    }
    if (u.origin === here.origin) {
      const path = here.pathname + here.search;
      const s = u.pathname + u.search === path && u.hash ? u.hash : u.pathname + u.search + u.hash;
      return defang(cut(s, 80));
    }
    return defang(cut(u.href, 100));
  }

  agent.names = { textOf, nameOf, describe, hrefOf };
})(globalThis.__tabbridgeAgent ??= {});
