// The page agent's roles: an element's ARIA role (explicit, else implied by
// its tag), which roles are interactive, take their name from content, or
// group others; secret and text fields.
(function (agent) {
  'use strict';

  const { inputType, styleOf } = agent.dom;

  const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton', 'treeitem']);
  const NAME_FROM_CONTENT = new Set(['button', 'link', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
    'treeitem', 'heading', 'checkbox', 'radio', 'switch', 'clickable', 'draggable', 'cell', 'gridcell', 'columnheader', 'rowheader', 'tooltip']);
  const CONTAINERS = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'form', 'region']);
  const NEED_NAME = new Set(['form', 'region']); // shown only when named
  const TEXTY_INPUTS = new Set(['', 'text', 'email', 'password', 'tel', 'url', 'search', 'number', 'date', 'time',
    'datetime-local', 'month', 'week']);

  function roleOf(el) {
    const explicit = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
    if (explicit && explicit !== 'presentation' && explicit !== 'none' && explicit !== 'generic') return explicit;
    const tag = el.localName;
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
      case 'button': return 'button';
      case 'summary': return 'button';
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'textarea': return 'textbox';
      case 'input': {
        const t = inputType(el);
        if (t === 'hidden') return '';
        if (t === 'checkbox') return 'checkbox';
        if (t === 'radio') return 'radio';
        if (t === 'range') return 'slider';
        if (t === 'number') return 'spinbutton';
        if (t === 'search') return 'searchbox';
        if (['button', 'submit', 'reset', 'image'].includes(t)) return 'button';
        if (t === 'file') return 'button';
        if (t === 'color') return 'button';
        return el.list ? 'combobox' : 'textbox';
      }
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'img': return el.getAttribute('alt') === '' ? '' : 'img';
      case 'nav': return 'navigation';
      case 'dialog': return 'dialog';
      case 'aside': return 'complementary';
      case 'search': return 'search';
      case 'form': return 'form';
      case 'section': return 'region';
      case 'header': return el.closest('article,aside,main,nav,section') ? '' : 'banner';
      case 'footer': return el.closest('article,aside,main,nav,section') ? '' : 'contentinfo';
      case 'option': return 'option';
      case 'progress': return 'progressbar';
      default: return '';
    }
  }

  // A field whose value is a secret: a password input; a text input or
  // textarea whose autocomplete says it holds a password, a card number or
  // code, or a one-time code (whatever its type); or one the page masks the
  // way a password is (-webkit-text-security). A "show password" button that
  // switches a field to plain text shows it only where nothing else says secret.
  const SECRET_AUTOCOMPLETE = new Set(['current-password', 'new-password', 'cc-number', 'cc-csc', 'one-time-code']);
  const SECRET_STYLE = /-webkit-text-security\s*:\s*(?!none)[a-z]/i;
  // From the markup alone: what a field says of itself, for fields with no
  // computed style (inside <template> content, or <noscript> text).
  const isSecretMarkup = (el) => {
    if (el.localName !== 'input' && el.localName !== 'textarea') return false;
    if (el.localName === 'input' && inputType(el) === 'password') return true;
    const tokens = (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
    if (tokens.some((t) => SECRET_AUTOCOMPLETE.has(t))) return true;
    return SECRET_STYLE.test(el.getAttribute('style') || '');
  };
  const isSecret = (el) => {
    if (el.localName !== 'input' && el.localName !== 'textarea') return false;
    if (isSecretMarkup(el)) return true;
    const view = el.ownerDocument.defaultView;
    if (!view) return false;
    const masked = styleOf(el).getPropertyValue('-webkit-text-security');
    return !!masked && masked !== 'none';
  };

  // Takes typed text: a text-like input, a textarea, or the root of a
  // contenteditable region.
  const isTexty = (el) => (el.localName === 'input' && TEXTY_INPUTS.has(inputType(el))) || el.localName === 'textarea' ||
    (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable));

  agent.roles = { INTERACTIVE_ROLES, NAME_FROM_CONTENT, CONTAINERS, NEED_NAME, roleOf, isSecret, isSecretMarkup, isTexty };
})(globalThis.__tabbridgeAgent ??= {});
