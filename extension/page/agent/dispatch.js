// The page agent's entry point, agent.run(op, args) -> plain JSON (or a
// promise of it). Injected last: the service worker's call (agent_runner.js)
// looks for agent.run. Ops and their args:
//   snapshot {startAt, textMax?}            -> {items, next}   items: line strings, or {frameRef, depth, head}
//   prepare  {ref|selector, scroll?, hitTest?, watch?} -> {desc, x, y, rect, aim, viewport, state, note?, scrolled, cover?, moving} | {error}
//   seen {}                                  -> {events: [{type, reached, on}], gone} | {none} (what the armed watch saw)
//   hoverCheck {ref|selector, arm?, waitMs?} -> {armed} | {hit}  (did the last mouse move reach it)
//   reachesAt {ref|selector, x, y}          -> {reaches} (the pointer at that point of this viewport reaches it)
//   settle {frames?, maxMs?, extraMs?}       -> {ok} after two animation frames
//   arm {}                                   -> {armed} (the change watch: changes.js)
//   after {ref|selector?, kinds?, waitMs?, quietMs?, maxMs?, final?, afterFetches?, texts?} -> {seen, state?, gone?, brought, mutations, waitedFor, waitedMs, next, renamed?, texts?}
//   listen {}                               -> {ok} (this window hears frame announcements)
//   announce {}                              -> {token} posted to the parent window | {inline} | {top}
//   resolveFrames {tokens, frameRefs}        -> {map: {token: ref of the <iframe> it came from}}
//   frameRect {token, rect}                  -> {rect, up, scrolled} (a child frame's rect mapped into this viewport) | {error}
//   state    {ref|selector}                  -> {desc, state} | {error}
//   focus    {ref|selector, clear}           -> {desc, focused, empty, secret} | {error}
//   fieldInfo {ref|selector}                 -> {desc, kind, checked?, state} | {error}
//   select   {ref|selector, values}          -> {desc, selected[], state} | {error}
//   scroll   {ref|selector?, dx?, dy?, to?}  -> {what, at, x, y, viewport} | {text} | {error}
//   info     {ref|selector}                  -> {desc, tag, href?, src?, download?} | {error}
//   submit   {ref|selector, armOnly?}        -> {button: local ref, desc, next} | {requested, desc} | {armed} | {error}
//   submitState {}                           -> {submitted, prevented, invalid[]} | {none}
//   active {}                                -> {text} (where the focus is)
//   readPage {mode, selector?, …}            -> read_page's answer (read.js)
//   selection {}                             -> {text, url} | {secret}
//   fileInput {ref|selector}                 -> {desc, input} (files.js)
//   setFiles {ref|selector, files}           -> {desc, holds[]} | {error}
// Every op takes startAt (the tab's next ref number, for a registry this
// document does not have yet) and notAfter (epoch ms): past it, the op does
// nothing ({error, expired}).
(function (agent) {
  'use strict';

  const { geometry, pointer, frames, snapshot, scroll, fields, read, changes, files } = agent;

  const pageFailed = (e) => ({ error: `page script failed: ${e?.message ?? e}` });

  const OPS = {
    snapshot: snapshot.snapshot,
    prepare: geometry.prepare,
    seen: pointer.seen,
    hoverCheck: geometry.hoverCheck,
    reachesAt: pointer.reachesAtOp,
    settle: geometry.settle,
    arm: changes.armOp,
    after: changes.after,
    listen: (a) => {
      frames.listen(window, a.startAt);
      return { ok: true };
    },
    announce: frames.announce,
    resolveFrames: frames.resolveFrames,
    frameRect: frames.frameRect,
    state: fields.stateOp,
    focus: fields.focusOp,
    fieldInfo: fields.fieldInfo,
    select: fields.selectOp,
    setValue: fields.setValueOp,
    scroll: scroll.scrollOp,
    info: fields.infoOp,
    submit: fields.submitOp,
    submitState: fields.submitStateOp,
    active: fields.activeOp,
    readPage: read.readPage,
    selection: read.selection,
    fileInput: files.fileInputOp,
    setFiles: files.setFilesOp,
  };

  function run(op, a = {}) {
    // A script that reached a page only after the worker stopped waiting (the
    // page was hung) must not act: the model was already told it failed.
    if (a.notAfter && Date.now() > a.notAfter) return { error: 'the page answered too late', expired: true };
    const fn = Object.hasOwn(OPS, op) ? OPS[op] : null;
    if (!fn) return { error: `unknown agent op ${op}` };
    try {
      const out = fn(a);
      return out instanceof Promise ? out.catch(pageFailed) : out;
    } catch (e) {
      return pageFailed(e);
    }
  }

  agent.run = run;
})(globalThis.__tabbridgeAgent ??= {});
