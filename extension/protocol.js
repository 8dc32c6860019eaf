// The one JS definition of the extension <-> host wire names, limits and codes.
// docs/protocol.md explains them; common/protocol.h is the C++ twin.
// Change all three together.

// Bumped whenever a message changes shape; the host exits on a mismatch.
export const PROTOCOL_VERSION = 1;

// Native-messaging host name (Chrome's rule: lowercase, dots).
export const NATIVE_HOST_NAME = 'com.tabbridge.host';

// Chrome drops the port on a larger message from the host, so the host sends
// bigger ones as `chunk` notifications that chunk_assembler.js puts together.
export const MAX_FRAME_TO_EXTENSION = 1024 * 1024;

// Requests (host -> extension).
export const Method = Object.freeze({
  PING: 'ping',
  TABS_CREATE: 'tabs.create',
  TABS_CLOSE: 'tabs.close',
});

// Page tools arrive as PAGE_PREFIX + the tool's name (common/tool_catalog.cpp).
export const PAGE_PREFIX = 'page.';

// Notifications (host -> extension).
export const Notification = Object.freeze({
  CHUNK: 'chunk',
  CANCEL: 'cancel',
});

// Events (extension -> host).
export const Event = Object.freeze({
  HELLO: 'hello',
  TAB_CREATED: 'tab.created',
  TAB_UPDATED: 'tab.updated',
  TAB_REMOVED: 'tab.removed',
  PAGE_PROGRESS: 'page.progress',
  CONSOLE_ENTRY: 'console.entry',
});

// JSON-RPC error codes the extension answers with.
export const ErrorCode = Object.freeze({
  METHOD_NOT_FOUND: -32601,
  BROWSER_ERROR: -32000,
  TAB_NOT_FOUND: -32001,
  INVALID_ARGUMENT: -32002,
});

// Thrown by handlers to answer with a specific code; any other exception
// becomes BROWSER_ERROR with its message.
export class RpcError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
  }
}
