// The extension's view of the wire: the names, limits, deadlines and codes
// come from wire.js, generated from common/protocol.h (docs/protocol.md);
// the few functions over them are here.

import { AGENT_URL_SCHEMES, OwnToolLimits } from './wire.js';
import { cut } from './text_cut.js';

export * from './wire.js';

// The one rule for which URLs are the agent's (kAgentUrlSchemes in
// common/protocol.h): tabs on them are listed, open_tab and navigate go only
// there; about:blank, data: and chrome:// pages stay the user's.
export const isAgentUrl = (url) => {
  try {
    return AGENT_URL_SCHEMES.includes(new URL(url).protocol);
  } catch {
    return false;
  }
};

// Page text cut to max characters, "…" marking the cut, on whole code points.
export { cut };

// A page tool's name as messages show it: one line, at most MAX_NAME_CHARS.
export const toolLabel = (name) => cut(String(name).replace(/\s+/g, ' ').trim(), OwnToolLimits.MAX_NAME_CHARS);

// Thrown by handlers to answer with a specific code (and the error's `data`,
// when given); any other exception becomes BROWSER_ERROR with its message.
export class RpcError extends Error {
  constructor(code, message, data = undefined) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}
