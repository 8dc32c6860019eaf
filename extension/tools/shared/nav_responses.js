// What a tab's main frame received while navigate watched it: the response
// headers of each main-frame request (status, Content-Disposition,
// Content-Type) and the downloads the browser started meanwhile. A navigation
// that ends in net::ERR_ABORTED without a new page is explained from these:
// a 204/205 answer, or a response the browser turned into a download.

const NO_CONTENT = new Set([204, 205]);
// Types a tab shows itself; anything else without a Content-Disposition is saved.
const SHOWN = /^(text\/|image\/|video\/|audio\/|application\/(xhtml\+xml|xml|json|pdf|javascript|ecmascript)|multipart\/x-mixed-replace)/i;

export function watchResponses(tabId) {
  const responses = []; // {url, status, disposition, type}
  const downloads = []; // chrome.downloads.DownloadItem
  const onHeaders = (d) => {
    const header = (name) => d.responseHeaders?.find((h) => h.name.toLowerCase() === name)?.value ?? '';
    responses.push({ url: d.url, status: d.statusCode, disposition: header('content-disposition'), type: header('content-type') });
  };
  const onDownload = (item) => downloads.push(item);
  chrome.webRequest.onHeadersReceived.addListener(onHeaders, { urls: ['<all_urls>'], types: ['main_frame'], tabId }, ['responseHeaders']);
  chrome.downloads.onCreated.addListener(onDownload);

  // The download started by navigating to url (matched on its URL or the
  // response's, redirects included), or null.
  function downloadOf(url) {
    const urls = new Set([url, ...responses.map((r) => r.url)]);
    return downloads.find((d) => urls.has(d.url) || urls.has(d.finalUrl)) ?? null;
  }

  return {
    // Why the main-frame navigation to url ended without a page:
    // {kind: 'no-content', status} | {kind: 'download', name} | null (unknown).
    explain(url) {
      const last = responses.at(-1) ?? null;
      const download = downloadOf(url);
      const attachment = last && (/^\s*attachment/i.test(last.disposition) || (last.status < 300 && last.type && !SHOWN.test(last.type)));
      if (download || attachment) return { kind: 'download', name: fileName(download, last, url) };
      if (last && NO_CONTENT.has(last.status)) return { kind: 'no-content', status: last.status };
      return null;
    },
    dispose() {
      chrome.webRequest.onHeadersReceived.removeListener(onHeaders);
      chrome.downloads.onCreated.removeListener(onDownload);
    },
  };
}

// The name the file gets: the browser's (once known), else the server's
// Content-Disposition filename, else the URL's last path segment.
function fileName(download, response, url) {
  const base = (p) => String(p).split(/[\\/]/).pop();
  if (download?.filename) return base(download.filename);
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(response?.disposition ?? '');
  if (m) {
    try {
      return base(decodeURIComponent(m[1]));
    } catch {
      return base(m[1]);
    }
  }
  try {
    return base(new URL(download?.finalUrl || response?.url || url).pathname) || 'a file';
  } catch {
    return 'a file';
  }
}
