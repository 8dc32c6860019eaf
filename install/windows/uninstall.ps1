# Reverses install.ps1 for the current user: `tabbridge.exe unregister`
# deletes the HKCU keys that point at this install's manifest (a key another
# install set is left, and said) and the manifest; the programs, the
# extension and this script leave %LOCALAPPDATA%\tabbridge, which leaves the
# user's PATH. Your data stays unless -RemoveData is given: the audit log
# (%LOCALAPPDATA%\tabbridge\audit.jsonl), the launch profile
# (%LOCALAPPDATA%\tabbridge\profile, the browser profile tabbridge launches)
# the policy (%APPDATA%\tabbridge\policy.json) and the pipe names' private
# prefix (%LOCALAPPDATA%\tabbridge\pipe-prefix); what stays is listed.
#   powershell -ExecutionPolicy Bypass -File "$env:LOCALAPPDATA\tabbridge\uninstall.ps1" [-RemoveData]
# (This file is ASCII: Windows PowerShell reads it in the ANSI code page.)
param(
  # Also remove the audit log, the launch profile, the policy and anything
  # else in %LOCALAPPDATA%\tabbridge and %APPDATA%\tabbridge.
  [switch]$RemoveData
)
$ErrorActionPreference = 'Stop'
[Console]::OutputEncoding = [Text.Encoding]::UTF8
$OutputEncoding = [Text.Encoding]::UTF8

$target = Join-Path -Path $env:LOCALAPPDATA -ChildPath 'tabbridge'
$config = Join-Path -Path $env:APPDATA -ChildPath 'tabbridge'
$exe = Join-Path -Path $target -ChildPath 'tabbridge.exe'
# What install.ps1 put there (and the manifest register wrote, should
# unregister not have removed it); the rest is data.
$programs = @('tabbridge.exe', 'tabbridge-host.exe', 'extension', 'com.tabbridge.host.json', 'uninstall.ps1')
$data = @(
  @{ Path = (Join-Path -Path $target -ChildPath 'audit.jsonl'); What = 'the audit log (and its older parts, audit.jsonl.<n>)' },
  @{ Path = (Join-Path -Path $target -ChildPath 'profile'); What = 'the launch profile (the browser tabbridge starts)' },
  @{ Path = (Join-Path -Path $config -ChildPath 'policy.json'); What = 'the policy' },
  @{ Path = (Join-Path -Path $target -ChildPath 'pipe-prefix'); What = 'the pipe names'' private prefix (a running host listens under it)' }
)

if (Test-Path -LiteralPath $exe) {
  & $exe unregister
  if ($LASTEXITCODE -ne 0) { throw "tabbridge.exe unregister failed (exit $LASTEXITCODE); nothing else was removed" }
} else {
  Write-Host "no $exe: the registry keys were not looked at"
}
Set-Location -LiteralPath $env:TEMP  # not inside the folder being removed

# The user's PATH without this folder (read unexpanded, as install.ps1 wrote it).
$environment = Get-Item -LiteralPath 'HKCU:\Environment'
$rawPath = [string]$environment.GetValue('Path', '', 'DoNotExpandEnvironmentNames')
$entries = @($rawPath -split ';' | Where-Object { $_ -ne '' })
$kept = @($entries | Where-Object { [Environment]::ExpandEnvironmentVariables($_).TrimEnd('\') -ine $target.TrimEnd('\') })
if ($kept.Count -ne $entries.Count) {
  $newPath = $kept -join ';'
  if ($rawPath.Contains('%')) {
    Set-ItemProperty -LiteralPath 'HKCU:\Environment' -Name 'Path' -Value $newPath -Type ExpandString
    [Environment]::SetEnvironmentVariable('TABBRIDGE_PATH_CHANGED', '1', 'User')
    [Environment]::SetEnvironmentVariable('TABBRIDGE_PATH_CHANGED', $null, 'User')
  } else {
    [Environment]::SetEnvironmentVariable('Path', $newPath, 'User')
  }
  Write-Host "removed $target from your user PATH (terminals opened from now on)"
}

# The programs, the extension, old versions install.ps1 renamed aside. A
# running program (an MCP client's tabbridge.exe, the browser's
# tabbridge-host.exe) cannot be deleted: it is named, and this script stays
# so that running it again finishes the job.
$busy = @()
$names = $programs
if (Test-Path -LiteralPath $target) {
  $names += @(Get-ChildItem -LiteralPath $target -Force | Where-Object { $_.Name -match '\.old-\d+$' -or $_.Name -like '.install-*' } |
      ForEach-Object { $_.Name })
}
foreach ($name in $names) {
  if ($name -eq 'uninstall.ps1') { continue }  # last, and only if all else went
  $path = Join-Path -Path $target -ChildPath $name
  if (-not (Test-Path -LiteralPath $path)) { continue }
  try {
    Remove-Item -LiteralPath $path -Recurse -Force
    Write-Host "removed $path"
  } catch {
    $busy += $path
  }
}
if ($busy.Count -gt 0) {
  Write-Host 'still in use, so not removed (close Claude Code and the browser, then run uninstall.ps1 again):'
  foreach ($path in $busy) { Write-Host "  $path" }
} else {
  $script = Join-Path -Path $target -ChildPath 'uninstall.ps1'
  if (Test-Path -LiteralPath $script) { Remove-Item -LiteralPath $script -Force }
}

if ($RemoveData) {
  foreach ($dir in @($target, $config)) {
    if ($busy.Count -gt 0 -and $dir -eq $target) { continue }
    if (Test-Path -LiteralPath $dir) {
      try {
        Remove-Item -LiteralPath $dir -Recurse -Force
        Write-Host "removed $dir and everything in it"
      } catch {
        Write-Host "could not remove all of ${dir} (is the browser tabbridge launched still open?): $_"
      }
    }
  }
} else {
  $left = @($data | Where-Object { Test-Path -LiteralPath $_.Path })
  if ($left.Count -gt 0) {
    Write-Host 'kept (uninstall.ps1 -RemoveData removes them):'
    foreach ($item in $left) { Write-Host "  $($item.What): $($item.Path)" }
  }
  # Anything else left in the folders (a log file you set up, say) is yours too.
  foreach ($dir in @($target, $config)) {
    if (-not (Test-Path -LiteralPath $dir)) { continue }
    $rest = @(Get-ChildItem -LiteralPath $dir -Force)
    if ($rest.Count -eq 0) {
      Remove-Item -LiteralPath $dir -Force
    } elseif ($busy.Count -eq 0) {
      $others = @($rest | Where-Object { $path = $_.FullName; -not @($data | Where-Object { $_.Path -eq $path }).Count } |
          Where-Object { $_.Name -notmatch '^audit\.jsonl\.\d+$' })
      if ($others.Count -gt 0) { Write-Host "  and in ${dir}: $(@($others | ForEach-Object { $_.Name }) -join ', ')" }
    }
  }
}
Write-Host 'Also: remove the extension in chrome://extensions, and `claude mcp remove tabbridge`.'
