// install/windows/install.ps1 and uninstall.ps1, read (no PowerShell runs
// on Debian, so they are checked for what they must do; docs/windows.md):
// every path literal (-LiteralPath: a user name may hold [ ]), an upgrade
// that stages the new files and renames running programs aside instead of
// overwriting them, the user's PATH set once and unset, UTF-8 output, the
// Claude Desktop snippet's JSON escapes, where the logs go; uninstall keeps
// the data (named as the C++ names it) unless -RemoveData.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (rel) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const install = read('install/windows/install.ps1');
const uninstall = read('install/windows/uninstall.ps1');

// The code without comments (a '#' outside quotes to the line's end), lines
// joined where a backtick continues them.
function code(script) {
  const lines = [];
  for (const line of script.split('\n')) {
    let out = '';
    let quote = null;
    for (const c of line) {
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === "'" || c === '"') {
        quote = c;
      } else if (c === '#') {
        break;
      }
      out += c;
    }
    lines.push(out);
  }
  return lines.join('\n').replace(/`\n/g, ' ');
}

// Each use of a cmdlet that takes a path, with what follows it on its line.
const PATH_CMDLETS = ['Copy-Item', 'Remove-Item', 'Test-Path', 'Move-Item', 'Rename-Item', 'Get-ChildItem',
  'Get-Item', 'Set-ItemProperty', 'Set-Location', 'New-Item', 'Get-Content', 'Set-Content', 'Out-File'];
function pathCalls(script) {
  const re = new RegExp(`\\b(${PATH_CMDLETS.join('|')})\\b([^\\n]*)`, 'g');
  return [...code(script).matchAll(re)].map((m) => ({ cmdlet: m[1], rest: m[2], text: m[0] }));
}

for (const [name, script] of [['install.ps1', install], ['uninstall.ps1', uninstall]]) {
  describe(name, () => {
    it('is ASCII (Windows PowerShell reads a file without a BOM in the ANSI code page)', () => {
      const bad = [...script].filter((c) => c.codePointAt(0) > 0x7e && c !== '\n');
      assert.deepEqual(bad, []);
    });

    it('stops on the first error', () => {
      assert.match(code(script), /^\$ErrorActionPreference = 'Stop'$/m);
    });

    it('gives every path cmdlet a -LiteralPath, never -Path', () => {
      const calls = pathCalls(script);
      assert.ok(calls.length >= 8, `only ${calls.length} path cmdlets found`);
      for (const call of calls) {
        assert.match(call.rest, /^\s+-LiteralPath\b/, `not literal: ${call.text}`);
        // (Join-Path -Path builds a string; it reads no file.)
        const own = call.rest.replace(/\((Join|Split)-Path [^()]*\)/g, '(...)');
        assert.doesNotMatch(own, /\s-Path\b/, `a -Path: ${call.text}`);
      }
      // New-Item -Path would glob-check its parent: folders come from .NET.
      assert.doesNotMatch(code(script), /\bNew-Item\b/);
    });

    it('prints UTF-8 from its first line of output on', () => {
      const body = code(script);
      const utf8 = body.indexOf('[Console]::OutputEncoding = [Text.Encoding]::UTF8');
      assert.ok(utf8 >= 0, 'sets [Console]::OutputEncoding to UTF-8');
      for (const first of ['Write-Host', '& $exe']) {
        assert.ok(body.indexOf(first) > utf8, `${first} before the console is UTF-8`);
      }
    });

    it('changes the user PATH only through HKCU\\Environment, comparing entries expanded and case-blind', () => {
      const body = code(script);
      assert.match(body, /\[Environment\]::SetEnvironmentVariable\('Path', \$newPath, 'User'\)/);
      assert.match(body, /GetValue\('Path', '', 'DoNotExpandEnvironmentNames'\)/);
      assert.match(body, /\[Environment\]::ExpandEnvironmentVariables\(\$_\)\.TrimEnd\('\\'\) -i(eq|ne) \$target\.TrimEnd\('\\'\)/);
      assert.doesNotMatch(body, /'Machine'/);
    });
  });
}

describe('install.ps1', () => {
  const body = code(install);

  it('stages every new file before it touches the old ones', () => {
    const stage = body.indexOf("'.install-'");
    const copy = body.indexOf('Copy-Item -LiteralPath');
    const firstMove = body.indexOf('Move-Literal $dest');
    assert.ok(stage >= 0 && copy > stage, 'copies into a .install-* folder');
    assert.ok(firstMove > copy, 'renames an old file only after the copies');
    assert.match(body, /\$items = @\('tabbridge\.exe', 'tabbridge-host\.exe', 'uninstall\.ps1', 'extension'\)/);
    assert.match(body, /cannot copy the new files into \$\{target\} \(nothing was changed\)/);
  });

  it('renames the old programs aside (a running .exe can be renamed, not overwritten) and undoes a failed swap', () => {
    assert.match(body, /"\$path\.old-\$n"/, 'names PATH.old-<n>');
    assert.match(body, /\$step\.Aside = Get-AsideName \$dest\s+Move-Literal \$dest \$step\.Aside/);
    assert.match(body, /\[IO\.File\]::Move\(\$from, \$to\)/);
    assert.match(body, /\[IO\.Directory\]::Move\(\$from, \$to\)/);
    assert.doesNotMatch(body, /Copy-Item[^\n]*-Destination \$target\b/, 'no copy over the installed files');
    // On failure: the placed new one out, the old one back.
    assert.match(body, /if \(\$step\.Placed\) \{ Remove-Item -LiteralPath \$step\.Dest -Recurse -Force \}\s+if \(\$null -ne \$step\.Aside\) \{ Move-Literal \$step\.Aside \$step\.Dest \}/);
    assert.match(body, /the old version is back in place/);
  });

  it('removes old versions left aside when nothing holds them any more, and says which are held', () => {
    assert.match(body, /Where-Object \{ \$_\.Name -match '\\\.old-\\d\+\$' -or \$_\.Name -like '\.install-\*' \}/);
    const cleanup = body.indexOf("-match '\\.old-\\d+$'");
    assert.ok(cleanup >= 0 && cleanup < body.indexOf('Move-Literal $dest'), 'old versions cleaned before the swap');
    assert.match(body, /is in use \(an MCP client or the browser runs it\): the old one is now/);
  });

  it('adds the folder to the user PATH once, saying new terminals see it', () => {
    assert.match(body, /if \(\$onPath\) \{/);
    assert.match(body, /\$newPath = \(@\(\$entries\) \+ \$target\) -join ';'/);
    assert.match(body, /terminals opened from now on run ``tabbridge`` as typed/);
  });

  it('registers, and prints the Claude Code, WSL and Claude Desktop lines', () => {
    assert.match(body, /& \$exe register\n/);
    assert.match(body, /\$wsl = & \$exe wsl/);
    assert.match(body, /claude mcp add tabbridge -- `"\$exe`"/);
    assert.match(body, /claude_desktop_config\.json/);
    assert.match(body, /`"command`": `"\$exeJson`"/);
  });

  it("escapes the Claude Desktop path as JSON does (the script's two Replace calls, done here)", () => {
    const m = body.match(/\$exeJson = \$exe\.Replace\('(.)', '(..)'\)\.Replace\('(.)', '(..)'\)/);
    assert.ok(m, 'the escape line');
    const exe = 'C:\\Users\\Zoë O"Brien [x]\\AppData\\Local\\tabbridge\\tabbridge.exe';
    const escaped = exe.replaceAll(m[1], m[2]).replaceAll(m[3], m[4]);
    assert.equal(JSON.parse(`{"command": "${escaped}"}`).command, exe);
  });

  it('says where the host logs go on Windows', () => {
    assert.match(install, /--enable-logging/);
    assert.match(install, /chrome_debug\.log/);
    assert.match(body, /SetEnvironmentVariable\('TABBRIDGE_LOG_FILE', '\$logQuoted', 'User'\)/);
    assert.match(body, /\.Replace\("'", "''"\)/, "the log path quoted for '...'");
    // The host logs to stderr (and TABBRIDGE_LOG_FILE) and nowhere else.
    const logging = read('common/logging.cpp');
    assert.match(logging, /stderr_sink_st/);
    assert.match(logging, /getenv\("TABBRIDGE_LOG_FILE"\)/);
  });
});

describe('uninstall.ps1', () => {
  const body = code(uninstall);

  it('takes -RemoveData', () => {
    assert.match(body, /param\(\s*\[switch\]\$RemoveData\s*\)/);
  });

  it('runs unregister first and stops if it fails', () => {
    assert.match(body, /& \$exe unregister\n\s+if \(\$LASTEXITCODE -ne 0\) \{ throw/);
    assert.ok(body.indexOf('& $exe unregister') < body.indexOf('Remove-Item'));
  });

  it('names as data the files the programs write there, and removes only programs without -RemoveData', () => {
    // The names the C++ uses on Windows (the names only: how it joins the
    // folders to them may change).
    assert.match(read('common/audit_log_windows.cpp'), /audit\.jsonl"/);
    assert.match(read('common/audit_entry.cpp'), /path \+ "\." \+ std::to_string\(i\)/, 'rotated: audit.jsonl.<n>');
    assert.match(body, /-notmatch '\^audit\\\.jsonl\\\.\\d\+\$'/);
    assert.match(read('common/policy.cpp'), /policy\.json"/);
    assert.match(read('mcp_shim/paths.cpp'), /tabbridge\W+profile"/);
    assert.match(body, /Join-Path -Path \$target -ChildPath 'audit\.jsonl'/);
    assert.match(body, /Join-Path -Path \$target -ChildPath 'profile'/);
    assert.match(body, /Join-Path -Path \$config -ChildPath 'policy\.json'/);
    assert.match(read('common/socket_dir_windows.cpp'), /"pipe-prefix"/);
    assert.match(body, /Join-Path -Path \$target -ChildPath 'pipe-prefix'/);
    assert.match(body, /\$config = Join-Path -Path \$env:APPDATA -ChildPath 'tabbridge'/);
    const programs = body.match(/\$programs = @\(([^)]*)\)/);
    assert.ok(programs);
    assert.deepEqual(programs[1].split(',').map((s) => s.trim()),
      ["'tabbridge.exe'", "'tabbridge-host.exe'", "'extension'", "'com.tabbridge.host.json'", "'uninstall.ps1'"]);
    // Whole folders go only under -RemoveData.
    const removeData = body.indexOf('if ($RemoveData) {');
    const folders = [...body.matchAll(/Remove-Item -LiteralPath \$dir -Recurse/g)];
    assert.ok(removeData >= 0 && folders.length === 1 && folders[0].index > removeData);
    assert.match(body, /kept \(uninstall\.ps1 -RemoveData removes them\):/);
  });

  it('takes the folder off the user PATH', () => {
    assert.match(body, /\$kept = @\(\$entries \| Where-Object/);
    assert.match(body, /removed \$target from your user PATH/);
  });

  it('names what is still in use instead of half-removing silently', () => {
    assert.match(body, /still in use, so not removed/);
  });
});

describe("docs/clients.md's Windows Claude Desktop example", () => {
  it('is JSON whose command is the path install.ps1 prints for Claude Code', () => {
    const doc = read('docs/clients.md');
    const windows = doc.slice(doc.indexOf('**Windows**'));
    const added = windows.match(/claude mcp add tabbridge -- "([^"]+)"/);
    const block = windows.match(/```json\n([\s\S]*?)\n```/);
    assert.ok(added && block, 'the Claude Code line and the JSON block');
    const config = JSON.parse(block[1]);
    assert.equal(config.mcpServers.tabbridge.command, added[1]);
    assert.match(added[1], /^C:\\Users\\Zoë\\AppData\\Local\\tabbridge\\tabbridge\.exe$/);
  });
});
