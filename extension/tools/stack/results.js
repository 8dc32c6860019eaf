// The page tools' CallToolResult builders (docs/protocol.md "Page tools").
// No chrome.* here: the unit tests import it.

// A short account for the model (an action's answer), isError when it failed.
export const textResult = (text, isError = false) => ({ content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) });

// A failure in the page: the message says what happened and what to do next.
export const errorResult = (message) => textResult(message, true);

// A result with data: a one-line summary for the model, the same data as
// structuredContent, and (MCP: "SHOULD also return the serialized JSON in a
// TextContent block") that JSON as a second text block.
export function dataResult(summary, structured) {
  const content = [];
  if (summary) content.push({ type: 'text', text: summary });
  content.push({ type: 'text', text: JSON.stringify(structured) });
  return { content, structuredContent: structured };
}

// A document (markdown, text, a list): the body is the text the model reads;
// structuredContent carries only the small metadata (URL, cursor, counts).
export function documentResult(body, meta) {
  return {
    content: [{ type: 'text', text: body }, { type: 'text', text: JSON.stringify(meta) }],
    structuredContent: meta,
  };
}
