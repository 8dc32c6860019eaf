// extension/worker/protocol.js mirrors common/protocol.h (docs/protocol.md): the wire
// names, limits, error codes and the deadline budget must be the same numbers
// and strings on both sides. No browser: reads the header, imports the module.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const header = fs.readFileSync(path.join(ROOT, 'common/protocol.h'), 'utf8');
const jsSource = fs.readFileSync(path.join(ROOT, 'extension/worker/protocol.js'), 'utf8');
const js = await import(path.join(ROOT, 'extension/worker/protocol.js'));

/** `namespace::kName` (or `kName`) → value of every `inline constexpr` in protocol.h (numbers, products, strings). */
function cppConstants() {
  const out = new Map();
  const namespaces = [];
  for (const line of header.split('\n')) {
    const open = /^namespace (\w+) \{/.exec(line);
    if (open && open[1] !== 'tb') namespaces.push(open[1]);
    if (/^\}/.test(line)) namespaces.pop(); // namespaces close at column 0 (tb last, and not pushed)
    const m = /inline constexpr [\w:]+ (k\w+) = (.+);/.exec(line);
    if (!m) continue;
    const [, name, expr] = m;
    let value;
    if (/^"/.test(expr)) value = JSON.parse(expr);
    else if (/^[-\d' *]+$/.test(expr)) value = expr.replace(/'/g, '').split('*').reduce((p, f) => p * Number(f.trim()), 1);
    else continue;
    out.set([...namespaces, name].join('::'), value);
  }
  return out;
}

const cpp = cppConstants();
const cppValue = (name) => {
  assert.ok(cpp.has(name), `common/protocol.h has no constant ${name}`);
  return cpp.get(name);
};

describe('extension/worker/protocol.js agrees with common/protocol.h', () => {
  it('every value annotated with its C++ twin (// kName) has that value', () => {
    let checked = 0;
    for (const line of jsSource.split('\n')) {
      const m = /^\s*(\w+):\s*([\d_ *]+),\s*\/\/\s*(k\w+)/.exec(line);
      if (!m) continue;
      const value = m[2].replace(/_/g, '').split('*').reduce((p, f) => p * Number(f.trim()), 1);
      assert.equal(value, cppValue(m[3]), `${m[1]} (${value}) != ${m[3]} (${cppValue(m[3])})`);
      checked++;
    }
    assert.ok(checked >= 9, `found ${checked} annotated values`);
  });

  it('the deadline budget', () => {
    const pairs = {
      PAGE_TOOL_MS: 'kPageToolDeadlineMs',
      PAGE_MARGIN_MS: 'kPageDeadlineMarginMs',
      DOWNLOAD_MS: 'kDownloadDeadlineMs',
      PAGE_TOOL_CALL_MS: 'kPageToolCallDeadlineMs',
      ANSWER_MARGIN_MS: 'kExtensionAnswerMarginMs',
      CDP_COMMAND_MS: 'kCdpCommandTimeoutMs',
      PAGE_SCRIPT_MS: 'kPageScriptTimeoutMs',
    };
    assert.deepEqual(Object.keys(js.Deadlines).sort(), Object.keys(pairs).sort(), 'every JS deadline has a C++ twin');
    for (const [key, name] of Object.entries(pairs)) assert.equal(js.Deadlines[key], cppValue(name), `Deadlines.${key}`);
    // Nesting, as the extension relies on it.
    assert.ok(js.Deadlines.CDP_COMMAND_MS + js.Deadlines.ANSWER_MARGIN_MS < js.Deadlines.PAGE_TOOL_MS);
    assert.ok(js.Deadlines.PAGE_SCRIPT_MS < js.Deadlines.CDP_COMMAND_MS);
  });

  it('the agent\'s URL schemes (one rule for host and extension)', () => {
    const m = /inline constexpr std::string_view kAgentUrlSchemes\[\] = \{([^}]*)\};/.exec(header);
    assert.ok(m, 'common/protocol.h has kAgentUrlSchemes');
    const schemes = m[1].split(',').map((s) => JSON.parse(s.trim()));
    assert.deepEqual([...js.AGENT_URL_SCHEMES], schemes.map((s) => `${s}:`));
    assert.ok(js.isAgentUrl('file:///tmp/x') && js.isAgentUrl('https://a.test/') && !js.isAgentUrl('about:blank'));
    assert.ok(!js.isAgentUrl('data:text/html,x') && !js.isAgentUrl('not a url'));
  });

  it('protocol version, host name, frame limit, methods, events and error codes', () => {
    assert.equal(js.PROTOCOL_VERSION, cppValue('kExtensionProtocol'));
    assert.equal(js.NATIVE_HOST_NAME, cppValue('kNativeHostName'));
    assert.equal(js.MAX_FRAME_TO_EXTENSION, cppValue('kMaxFrameToExtension'));
    assert.equal(js.PAGE_PREFIX, cppValue('ext_method::kPagePrefix'));
    const methods = { PING: 'kPing', TABS_CREATE: 'kTabsCreate', TABS_CLOSE: 'kTabsClose', PAGE_TOOL_CALL: 'kPageToolCall' };
    for (const [key, name] of Object.entries(methods)) assert.equal(js.Method[key], cppValue(`ext_method::${name}`), `Method.${key}`);
    assert.equal(js.Notification.CHUNK, cppValue('ext_method::kChunk'));
    assert.equal(js.Notification.CANCEL, cppValue('ext_method::kCancel'));
    assert.equal(js.Notification.TABS_FOCUSED, cppValue('ext_method::kTabsFocused'));
    assert.equal(js.Notification.HOST_STATE, cppValue('ext_method::kHostState'));
    assert.equal(js.HOST_STATE_COALESCE_MS, cppValue('kHostStateCoalesceMs'));
    const requests = { POLICY_CHECK: 'kPolicyCheck', DETACH_TAB: 'kDetachTab', DISCONNECT_SESSION: 'kDisconnectSession', POLICY_DECIDE: 'kPolicyDecide' };
    assert.deepEqual(Object.keys(js.HostRequest).sort(), Object.keys(requests).sort(), 'every JS host request has a C++ twin');
    for (const [key, name] of Object.entries(requests)) {
      assert.equal(js.HostRequest[key], cppValue(`ext_request::${name}`), `HostRequest.${key}`);
    }
    assert.equal(js.DEBUGGER_IDLE_MS, cppValue('kDebuggerIdleMs'));
    assert.equal(js.POLICY_URL_PARAM, cppValue('ext_method::kPolicyUrlParam'));
    assert.equal(js.NAVIGATED_TO_META, cppValue('ext_method::kNavigatedToMeta'));
    assert.equal(js.WENT_TO_META, cppValue('ext_method::kWentToMeta'));
    const events = {
      HELLO: 'kHello', TAB_CREATED: 'kTabCreated', TAB_UPDATED: 'kTabUpdated', TAB_REMOVED: 'kTabRemoved',
      PAGE_PROGRESS: 'kPageProgress', CONSOLE_ENTRY: 'kConsoleEntry', PAGE_TOOLS: 'kPageTools',
    };
    for (const [key, name] of Object.entries(events)) assert.equal(js.Event[key], cppValue(`ext_event::${name}`), `Event.${key}`);
    const codes = {
      METHOD_NOT_FOUND: 'kMethodNotFound', BROWSER_ERROR: 'kBrowserError', TAB_NOT_FOUND: 'kTabNotFound',
      INVALID_ARGUMENT: 'kInvalidArgument', DOCUMENT_CHANGED: 'kDocumentChanged', PAGE_MOVED: 'kPageMoved',
    };
    for (const [key, name] of Object.entries(codes)) assert.equal(js.ErrorCode[key], cppValue(`rpc_error::${name}`), `ErrorCode.${key}`);
  });
});
