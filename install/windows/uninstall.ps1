# Reverses install.ps1 for the current user: `tabbridge.exe unregister`
# deletes the HKCU keys and the manifest, then %LOCALAPPDATA%\tabbridge goes.
#   powershell -ExecutionPolicy Bypass -File "$env:LOCALAPPDATA\tabbridge\uninstall.ps1"
$ErrorActionPreference = 'Stop'
$target = Join-Path $env:LOCALAPPDATA 'tabbridge'
$exe = Join-Path $target 'tabbridge.exe'

if (Test-Path $exe) {
  & $exe unregister
  if ($LASTEXITCODE -ne 0) { throw "tabbridge.exe unregister failed (exit $LASTEXITCODE)" }
}
Set-Location $env:TEMP  # not inside the folder being removed
try {
  if (Test-Path $target) { Remove-Item -Recurse -Force $target }
} catch {
  throw "cannot remove ${target}: close the browser (its tabbridge-host.exe runs from there) and run uninstall.ps1 again ($_)"
}
Write-Host "removed $target"
Write-Host 'Also: remove the extension in chrome://extensions, and `claude mcp remove tabbridge`.'
