// The name a download is saved under (download.js): a bare, harmless file
// name. No chrome: tests/js unit-tests it.

// Opening these runs code (or installs it): they get a harmless ".download" suffix.
const DANGEROUS_EXTENSIONS = new Set([
  'exe', 'msi', 'msp', 'msix', 'appx', 'bat', 'cmd', 'com', 'scr', 'pif', 'cpl', 'msc', 'vb', 'vbs', 'vbe', 'js',
  'jse', 'mjs', 'ws', 'wsf', 'wsh', 'wsc', 'ps1', 'psm1', 'psd1', 'hta', 'lnk', 'reg', 'inf', 'dll', 'sys', 'jar',
  'sh', 'bash', 'zsh', 'csh', 'ksh', 'command', 'tool', 'app', 'dmg', 'pkg', 'mpkg', 'deb', 'rpm', 'apk', 'appimage',
  'run', 'desktop', 'scpt', 'workflow', 'action', 'py', 'pyw', 'pl', 'rb', 'php', 'url', 'website', 'library-ms',
  'settingcontent-ms', 'application', 'gadget', 'xbap', 'crx', 'xpi',
]);

// A bare file name: no directories, no control or reserved characters, no
// leading dots (hidden files), no Windows device names, and dangerous types
// neutralised.
export function sanitizeFileName(raw) {
  let name = String(raw ?? '').split(/[\\/]/).pop();
  // eslint-disable-next-line no-control-regex -- control characters are what it removes
  name = name.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').replace(/^[\s.]+/, '').replace(/[\s.]+$/, '');
  if (!name) name = 'download';
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(name)) name = `_${name}`;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (name.length > 150) {
    const suffix = ext && ext.length < 20 ? `.${ext}` : '';
    name = name.slice(0, 150 - suffix.length) + suffix;
  }
  if (DANGEROUS_EXTENSIONS.has(ext)) name += '.download';
  return name;
}
