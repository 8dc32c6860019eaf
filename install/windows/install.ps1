# tabbridge for the current Windows user, no administrator: copies the two
# programs and the extension to %LOCALAPPDATA%\tabbridge, then
# `tabbridge.exe register` writes the native-messaging manifest there and
# points the HKCU keys of Chrome, Chromium, Edge, Brave and Vivaldi at it.
# Prints the `claude mcp add` lines (Windows and WSL) and how to load the
# extension. Run from the unzipped tabbridge-windows.zip:
#   powershell -ExecutionPolicy Bypass -File install.ps1
$ErrorActionPreference = 'Stop'
$target = Join-Path $env:LOCALAPPDATA 'tabbridge'
$exe = Join-Path $target 'tabbridge.exe'
$extension = Join-Path $target 'extension'

New-Item -ItemType Directory -Force -Path $target | Out-Null
try {
  foreach ($name in 'tabbridge.exe', 'tabbridge-host.exe', 'uninstall.ps1') {
    Copy-Item -Force -Path (Join-Path $PSScriptRoot $name) -Destination $target
  }
} catch {
  throw "cannot replace the files in ${target}: close the browser (its tabbridge-host.exe runs from there) and run install.ps1 again ($_)"
}
if (Test-Path $extension) { Remove-Item -Recurse -Force $extension }
Copy-Item -Recurse -Path (Join-Path $PSScriptRoot 'extension') -Destination $extension

# register reads the extension's ID from its manifest.json key.
$env:TABBRIDGE_EXTENSION_DIR = $extension
& $exe register
if ($LASTEXITCODE -ne 0) { throw "tabbridge.exe register failed (exit $LASTEXITCODE)" }

Write-Host ''
Write-Host 'Claude Code on Windows:'
Write-Host "  claude mcp add tabbridge -- `"$exe`""
Write-Host 'Claude Code inside WSL:'
$wsl = & $exe wsl
Write-Host "  $wsl"
Write-Host ''
Write-Host 'Load the extension once: chrome://extensions (edge://extensions, brave://extensions)'
Write-Host "  -> Developer mode -> Load unpacked -> $extension"
Write-Host "Check every link: & `"$exe`" doctor"
