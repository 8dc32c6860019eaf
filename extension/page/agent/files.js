// The page agent's file inputs, for upload_file:
//   fileInput {ref|selector} -> {desc, input: {desc, multiple, disabled, accept} | null}
//   setFiles  {ref|selector, files} -> {desc, holds: [{name, size, type}]} | {error}
// files: [{name, data (base64), lastModified}] as the shim read them. The
// target may be the input, its <label>, or an element holding exactly one
// (a drop zone around a hidden input); anything else is clicked with the
// file chooser intercepted (tools/upload_file.js), and put() is then run on
// the input the chooser named, alone, in a world of the debugger's: it uses
// nothing else of the agent, and this file defines nothing else at load.
(function (agent) {
  'use strict';

  // A File's type as the browser gives a chosen file: from its extension
  // (pages check it against accept, or by it pick a preview).
  const TYPES = {
    png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif',
    svg: 'image/svg+xml', bmp: 'image/bmp', ico: 'image/x-icon', heic: 'image/heic', pdf: 'application/pdf',
    txt: 'text/plain', csv: 'text/csv', tsv: 'text/tab-separated-values', md: 'text/markdown', html: 'text/html',
    htm: 'text/html', css: 'text/css', js: 'text/javascript', json: 'application/json', xml: 'text/xml',
    yaml: 'application/yaml', yml: 'application/yaml', zip: 'application/zip', gz: 'application/gzip',
    tar: 'application/x-tar', mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', mp4: 'video/mp4',
    webm: 'video/webm', mov: 'video/quicktime', doc: 'application/msword', xls: 'application/vnd.ms-excel',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  };

  const isFileInput = (el) => el?.localName === 'input' && String(el.type).toLowerCase() === 'file';

  function toFile(f) {
    const bin = atob(f.data);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const ext = /\.([^./]+)$/.exec(f.name)?.[1]?.toLowerCase() ?? '';
    return new File([bytes], f.name, { type: TYPES[ext] ?? '', lastModified: f.lastModified ?? Date.now() });
  }

  // The files into the input, as a chosen set replaces what it held; then the
  // input and change events a choice fires (script-made: a page that insists
  // on isTrusted there is rare).
  function put(input, files) {
    if (!isFileInput(input)) return { error: 'not a file input' };
    if (input.disabled) return { error: 'the file input is disabled' };
    if (!input.multiple && files.length > 1) return { error: `the file input takes one file, not ${files.length}` };
    const chosen = new DataTransfer();
    for (const f of files) chosen.items.add(toFile(f));
    input.files = chosen.files;
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return { holds: [...(input.files ?? [])].map((f) => ({ name: f.name, size: f.size, type: f.type })) };
  }

  // The file input a target stands for, or null.
  function inputOf(el) {
    if (isFileInput(el)) return el;
    if (el.localName === 'label' && isFileInput(el.control)) return el.control;
    const inside = [...el.querySelectorAll('input')].filter(isFileInput);
    return inside.length === 1 ? inside[0] : null;
  }

  function fileInputOp(a) {
    const res = agent.registry.resolve(a);
    if (res.error) return res;
    const { describe } = agent.names;
    const input = inputOf(res.el);
    return {
      desc: describe(res.el),
      input: input && { desc: describe(input), multiple: !!input.multiple, disabled: !!input.disabled, accept: input.accept || '' },
    };
  }

  function setFilesOp(a) {
    const res = agent.registry.resolve(a);
    if (res.error) return res;
    const input = inputOf(res.el);
    if (!input) return { error: `${agent.names.describe(res.el)} is not a file input` };
    const out = put(input, a.files);
    return out.error ? { error: `${agent.names.describe(input)}: ${out.error}` } : { desc: agent.names.describe(input), ...out };
  }

  agent.files = { put, fileInputOp, setFilesOp };
})(globalThis.__tabbridgeAgent ??= {});
