# tabbridge for the current Windows user, no administrator: puts the two
# programs, uninstall.ps1 and the extension in %LOCALAPPDATA%\tabbridge, then
# `tabbridge.exe register` writes the native-messaging manifest there and
# points the HKCU keys of Chrome, Chromium, Edge, Brave and Vivaldi at it, and
# that folder goes on the user's PATH. Prints the lines for Claude Code
# (Windows and WSL) and Claude Desktop, how to load the extension, and where
# the logs are. Run from the unzipped tabbridge-windows.zip:
#   powershell -ExecutionPolicy Bypass -File install.ps1
#
# An upgrade while Claude Code runs tabbridge.exe (Windows refuses to
# overwrite a running program but lets it be renamed): everything new is
# first copied into a staging folder next to the old files (a failure there
# leaves the old version whole), then each old file or folder is renamed
# aside (tabbridge.exe -> tabbridge.exe.old-1) and the new one moved in; if
# a move fails, the ones done are put back. The old files go at once where
# nothing holds them, else at the next install. Every path is literal
# (-LiteralPath, or .NET's file calls): a user name may hold [ ] or '.
$ErrorActionPreference = 'Stop'
# tabbridge.exe writes UTF-8: read back (`& $exe wsl`) and printed as such,
# so a user name with a letter outside ASCII survives in the lines below.
# (This file itself is ASCII: Windows PowerShell reads it in the ANSI code page.)
[Console]::OutputEncoding = [Text.Encoding]::UTF8
$OutputEncoding = [Text.Encoding]::UTF8

$source = $PSScriptRoot
$target = Join-Path -Path $env:LOCALAPPDATA -ChildPath 'tabbridge'
$exe = Join-Path -Path $target -ChildPath 'tabbridge.exe'
$extension = Join-Path -Path $target -ChildPath 'extension'
# What the zip brings; the rest of the folder (the manifest, the audit log,
# the launch profile) is not replaced.
$items = @('tabbridge.exe', 'tabbridge-host.exe', 'uninstall.ps1', 'extension')

foreach ($name in $items) {
  if (-not (Test-Path -LiteralPath (Join-Path -Path $source -ChildPath $name))) {
    throw "no $name next to install.ps1 in ${source}: unzip all of tabbridge-windows.zip and run install.ps1 there"
  }
}
[void][IO.Directory]::CreateDirectory($target)

# Old versions renamed aside by an earlier install, and the staging folder of
# one that was interrupted: gone now unless still in use.
$leftovers = @(Get-ChildItem -LiteralPath $target -Force |
    Where-Object { $_.Name -match '\.old-\d+$' -or $_.Name -like '.install-*' })
foreach ($old in $leftovers) {
  try { Remove-Item -LiteralPath $old.FullName -Recurse -Force } catch { }
}

# A free name beside PATH for the old one: PATH.old-1, -2, ...
function Get-AsideName([string]$path) {
  $n = 1
  while (Test-Path -LiteralPath "$path.old-$n") { $n++ }
  return "$path.old-$n"
}

# Renames a file or folder (literal paths; a running .exe can be renamed).
function Move-Literal([string]$from, [string]$to) {
  if ([IO.Directory]::Exists($from)) { [IO.Directory]::Move($from, $to) } else { [IO.File]::Move($from, $to) }
}

# 1. Stage: the new files, complete, beside the old ones (same volume: the
# moves below are renames).
$stage = Join-Path -Path $target -ChildPath ('.install-' + [Guid]::NewGuid().ToString('N'))
[void][IO.Directory]::CreateDirectory($stage)
try {
  foreach ($name in $items) {
    Copy-Item -LiteralPath (Join-Path -Path $source -ChildPath $name) -Destination (Join-Path -Path $stage -ChildPath $name) -Recurse -Force
  }
} catch {
  Remove-Item -LiteralPath $stage -Recurse -Force -ErrorAction SilentlyContinue
  throw "cannot copy the new files into ${target} (nothing was changed): $_"
}

# 2. Swap: each old item renamed aside, the new one moved in; undone on failure.
$done = New-Object System.Collections.ArrayList
try {
  foreach ($name in $items) {
    $dest = Join-Path -Path $target -ChildPath $name
    $step = @{ Dest = $dest; Aside = $null; Placed = $false }
    if (Test-Path -LiteralPath $dest) {
      $step.Aside = Get-AsideName $dest
      Move-Literal $dest $step.Aside
    }
    [void]$done.Add($step)
    Move-Literal (Join-Path -Path $stage -ChildPath $name) $dest
    $step.Placed = $true
  }
} catch {
  $failure = $_
  for ($i = $done.Count - 1; $i -ge 0; $i--) {
    $step = $done[$i]
    try {
      if ($step.Placed) { Remove-Item -LiteralPath $step.Dest -Recurse -Force }
      if ($null -ne $step.Aside) { Move-Literal $step.Aside $step.Dest }
    } catch {
      Write-Warning "could not put back $($step.Dest) (the old one is $($step.Aside)): $_"
    }
  }
  Remove-Item -LiteralPath $stage -Recurse -Force -ErrorAction SilentlyContinue
  throw "cannot replace the files in ${target}; the old version is back in place: $failure"
}
Remove-Item -LiteralPath $stage -Recurse -Force -ErrorAction SilentlyContinue

# 3. The old ones go where nothing holds them; a running one stays until the next install.
foreach ($step in $done) {
  if ($null -eq $step.Aside) { continue }
  try {
    Remove-Item -LiteralPath $step.Aside -Recurse -Force
  } catch {
    $leaf = [IO.Path]::GetFileName($step.Dest)
    Write-Host "$leaf is in use (an MCP client or the browser runs it): the old one is now $($step.Aside)," `
      'removed at the next install; restart Claude Code (and the browser) to use the new one.'
  }
}

# register reads the extension's ID from its manifest.json key.
$env:TABBRIDGE_EXTENSION_DIR = $extension
& $exe register
if ($LASTEXITCODE -ne 0) { throw "tabbridge.exe register failed (exit $LASTEXITCODE)" }

# 4. The user's PATH (HKCU\Environment), once: `tabbridge allow ...` as typed.
# The value is read unexpanded so %USERPROFILE%-style entries stay as they
# are; SetEnvironmentVariable tells running programs (Explorer) it changed.
$environment = Get-Item -LiteralPath 'HKCU:\Environment'
$rawPath = [string]$environment.GetValue('Path', '', 'DoNotExpandEnvironmentNames')
$entries = @($rawPath -split ';' | Where-Object { $_ -ne '' })
$onPath = @($entries | Where-Object {
    [Environment]::ExpandEnvironmentVariables($_).TrimEnd('\') -ieq $target.TrimEnd('\')
  }).Count -gt 0
if ($onPath) {
  Write-Host "$target is on your PATH already."
} else {
  $newPath = (@($entries) + $target) -join ';'
  if ($rawPath.Contains('%')) {
    # Keep the value expandable (REG_EXPAND_SZ), then announce the change.
    Set-ItemProperty -LiteralPath 'HKCU:\Environment' -Name 'Path' -Value $newPath -Type ExpandString
    [Environment]::SetEnvironmentVariable('TABBRIDGE_PATH_CHANGED', '1', 'User')
    [Environment]::SetEnvironmentVariable('TABBRIDGE_PATH_CHANGED', $null, 'User')
  } else {
    [Environment]::SetEnvironmentVariable('Path', $newPath, 'User')
  }
  Write-Host "Added $target to your user PATH: terminals opened from now on run ``tabbridge`` as typed (this one does not)."
}

$exeJson = $exe.Replace('\', '\\').Replace('"', '\"')  # a JSON string's escapes
$logQuoted = (Join-Path -Path $target -ChildPath 'tabbridge.log').Replace("'", "''")  # in '...'
Write-Host ''
Write-Host 'Claude Code on Windows:'
Write-Host "  claude mcp add tabbridge -- `"$exe`""
Write-Host 'Claude Code inside WSL:'
$wsl = & $exe wsl
# Its reason, when it fails, went to stderr: shown above, not captured.
if ($LASTEXITCODE -eq 0) { Write-Host "  $wsl" } else { Write-Host '  (tabbridge.exe wsl failed: its reason is above)' }
Write-Host 'Claude Desktop: in %APPDATA%\Claude\claude_desktop_config.json (beside any other "mcpServers"):'
Write-Host '  {'
Write-Host '    "mcpServers": {'
Write-Host "      `"tabbridge`": { `"command`": `"$exeJson`" }"
Write-Host '    }'
Write-Host '  }'
Write-Host ''
Write-Host 'Load the extension once: chrome://extensions (edge://extensions, brave://extensions)'
Write-Host "  -> Developer mode -> Load unpacked -> $extension"
Write-Host "Check every link: tabbridge doctor  (in a new terminal; here: & `"$exe`" doctor)"
Write-Host ''
Write-Host 'Logs: tabbridge-host.exe logs to its stderr, which Chrome on Windows discards unless it was started'
Write-Host '  with --enable-logging (then it is in chrome_debug.log in the browser''s user data folder). For a file'
Write-Host "  of its own: [Environment]::SetEnvironmentVariable('TABBRIDGE_LOG_FILE', '$logQuoted', 'User')"
Write-Host '  and restart the browser and Claude Code (tabbridge.exe logs there too). The audit log of every'
Write-Host "  tool call is $target\audit.jsonl."
