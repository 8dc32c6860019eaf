// save_pdf {landscape?, printBackground?, fileName?}: the focused page printed
// to PDF (CDP Page.printToPDF) into tabbridge's download folder, next to what
// download_file saves; answers the path and size. The browser prints the
// document as its print stylesheet shows it. Pinned (page_tool.js): a print
// of any other document than the one checked is never written.

import { cdp } from '../worker/cdp.js';
import { ToolError } from './stack/errors.js';
import { pageTool } from './stack/page_tool.js';
import { noteRead, titleRead } from './stack/reads.js';
import { dataResult } from './stack/results.js';
import { MAX_BYTES, fetchIntoFolder } from './download_file.js';

function pdfName(fileName, title) {
  const base = (typeof fileName === 'string' && fileName.trim()) ? fileName.trim() : (title || 'page');
  return /\.pdf$/i.test(base) ? base : `${base}.pdf`;
}

async function savePdfTool(tabId, { landscape = false, printBackground = true, fileName }, ctx) {
  let data;
  try {
    ({ data } = await cdp(tabId, 'Page.printToPDF', { landscape, printBackground, transferMode: 'ReturnAsBase64' }));
  } catch (e) {
    if (/not (implemented|available)/i.test(e.message)) {
      throw new ToolError(`this browser cannot print to PDF here (${e.message}) — a headless browser can (connect_browser {launch: true})`);
    }
    throw e;
  }
  // The page sees the print (beforeprint, a resize, focus) and may leave for
  // another site, even back to one in its history: only a print of the
  // document the site check passed for is written (pinned_top.js).
  await ctx.pin.assertSame();
  noteRead(tabId, { documentId: ctx.pin.documentId, url: ctx.pin.url }); // the print is the pinned document's (its name may be its title)
  if (!data) throw new ToolError('the browser printed nothing');
  if (data.length * 0.75 > MAX_BYTES) throw new ToolError(`the PDF is larger than the ${MAX_BYTES / 1024 / 1024} MB limit`);
  const outcome = await fetchIntoFolder(`data:application/pdf;base64,${data}`, pdfName(fileName, titleRead(tabId, ctx.tab)), ctx);
  const { item } = outcome; // a data: URL goes nowhere else: never a denial
  const bytes = item.fileSize || item.bytesReceived;
  return dataResult(`saved the page as PDF (${bytes} bytes) to ${item.filename}`, { path: item.filename, bytes, mimeType: 'application/pdf' });
}

export const tool = pageTool(savePdfTool, { debugger: 'required', name: 'save_pdf' });
