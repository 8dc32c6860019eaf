// A user-origin stylesheet in the top document for the length of one act:
// no page style overrides it (!important included), and the page cannot
// remove it. Returns the undo (idempotent; the page may be gone by then).

export async function userSheet(tabId, css) {
  const sheet = { target: { tabId, frameIds: [0] }, css, origin: 'USER' };
  await chrome.scripting.insertCSS(sheet);
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    chrome.scripting.removeCSS(sheet).catch(() => {});
  };
}
