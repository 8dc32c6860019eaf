// The catalog walk (issue 42): every tool of the catalog, host and page and a
// page's own, proven to go through the three structures — its policy targets
// declared in the catalog (the host's call gate decides nothing else), its
// reads through the read primitives that note each document (the host judges
// every block by them), its effectful CDP commands through the one input
// broker. A tool added later without them fails here, not in an attack review.
// Pure: reads the generated catalog and the sources, runs nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { PAGE_TOOLS, TOOL_POLICIES } from '../../extension/worker/tool_catalog.js';
import { PRIMITIVES } from './lib/read_primitives.mjs';
import { BROKER, EXT, closure, offences, rel, withoutComments } from './lib/source_scan.mjs';

// Where each page-side tool is defined: page.<name> in tools/<name>.js, a
// page's own tool in tools/own/own_tools.js (owntool.call).
const entryOf = (name, kind) => path.join(EXT, 'tools', kind === 'own' ? 'own/own_tools.js' : `${name}.js`);

// What is wrong with a tool's modules ([{rel, code}], comments gone): a read
// primitive outside its allowed files, an effectful CDP command outside the
// broker, no pageTool (no ledger, no stamp) defined under the tool's name.
export function problemsOf(name, modules) {
  const problems = [];
  for (const { rel: r, code } of modules) {
    for (const p of PRIMITIVES) {
      if (p.pattern.test(code) && !(r in p.allowed)) problems.push(`${r} reads the page (${p.what}) outside the read primitives`);
    }
    if (r !== BROKER) {
      const found = offences(code, r);
      if (found.length) problems.push(`${r} sends effectful CDP outside the broker: ${found.join(', ')}`);
    }
  }
  if (!modules.some((m) => m.rel === 'tools/stack/page_tool.js')) problems.push(`${name} does not go through tools/stack/page_tool.js`);
  const defined = modules[0] && new RegExp(`pageTool\\(\\w+, \\{[^}]*name: '${name.replace('.', '\\.')}'`).test(modules[0].code);
  if (!defined) problems.push(`${modules[0]?.rel}: no pageTool named '${name}' (its catalog entry is not read)`);
  return problems;
}

const modulesOf = (entry) => {
  const files = closure(entry);
  return files.map((f) => ({ rel: rel(f), code: withoutComments(fs.readFileSync(f, 'utf8')) }));
};

describe('the catalog walk: every tool through the gate, the read primitives and the broker', () => {
  const names = Object.keys(TOOL_POLICIES);

  it('walks every tool: the host\'s, the page tools and the page\'s own', () => {
    assert.ok(names.length >= 30, `${names.length} tools`);
    for (const name of Object.keys(PAGE_TOOLS)) assert.equal(TOOL_POLICIES[name]?.kind, 'page', name);
    assert.equal(TOOL_POLICIES['owntool.call']?.kind, 'own');
    assert.ok(names.some((n) => TOOL_POLICIES[n].kind === 'host'));
  });

  for (const name of names) {
    const { kind, capability, targets } = TOOL_POLICIES[name];
    describe(name, () => {
      it('declares its policy targets in the catalog', () => {
        const declared = targets.focusedTab || targets.tabArg || targets.urlArg || targets.untargeted;
        assert.ok(declared, `${name} declares no target: the call gate refuses it`);
        if (capability !== null) {
          assert.ok(targets.focusedTab || targets.tabArg || targets.urlArg, `${name} needs ${capability} but names no page to decide it on`);
        } else {
          assert.ok(String(targets.untargeted ?? '').length >= 10 || targets.tabArg, `${name}: no capability, and no word on why none`);
        }
      });

      if (kind === 'host') {
        it('runs in the host: the extension has no page tool of that name', () => {
          assert.equal(name in PAGE_TOOLS, false);
          assert.equal(fs.existsSync(path.join(EXT, 'tools', `${name}.js`)), false, `tools/${name}.js`);
        });
        return;
      }

      it('reads through the read primitives, sends input through the broker, answers through pageTool', () => {
        const entry = entryOf(name, kind);
        assert.ok(fs.existsSync(entry), rel(entry));
        assert.deepEqual(problemsOf(name, modulesOf(entry)), []);
      });
    });
  }
});

describe('the walk catches a tool that skips a structure', () => {
  const tool = (code) => ({ rel: 'tools/new_tool.js', code: `import { pageTool } from './stack/page_tool.js';\n${code}` });
  const stack = { rel: 'tools/stack/page_tool.js', code: '' };
  const ok = "export const tool = pageTool(run, { name: 'new_tool' });";

  it('a clean tool passes', () => assert.deepEqual(problemsOf('new_tool', [tool(ok), stack]), []));

  it('a script run in the page outside the read primitives', () => {
    const found = problemsOf('new_tool', [tool(`${ok}\nawait chrome.scripting.executeScript({ target, func });`), stack]);
    assert.match(found.join('\n'), /reads the page \(chrome\.scripting\.executeScript\)/);
  });

  it('a CDP evaluation outside the read primitives', () => {
    const found = problemsOf('new_tool', [tool(`${ok}\nawait cdp(tabId, 'Runtime.evaluate', { expression });`), stack]);
    assert.match(found.join('\n'), /Runtime\.evaluate/);
  });

  it('trusted input or a dialog\'s answer outside the broker', () => {
    for (const send of ["cdp(tabId, 'Input.dispatchMouseEvent', p)", "cdp(tabId, 'Page.handleJavaScriptDialog', { accept: true })"]) {
      const found = problemsOf('new_tool', [tool(`${ok}\n${send};`), stack]);
      assert.match(found.join('\n'), /effectful CDP outside the broker/, send);
    }
  });

  it('a handler that is not a pageTool, or one under another name', () => {
    assert.match(problemsOf('new_tool', [tool('export const tool = async () => ({});')]).join('\n'), /page_tool\.js[\s\S]*no pageTool/);
    assert.match(problemsOf('new_tool', [tool("export const tool = pageTool(run, { name: 'other' });"), stack]).join('\n'), /no pageTool named/);
  });
});
