// The toolbar popup: asks the service worker (worker/popup_api.js) what to
// show, once a second while open, and sends it the buttons' requests.
// Page titles, URLs and tool names are page-written: they go in as text only.

const MESSAGE = 'tabbridge.popup'; // worker/popup_api.js POPUP_MESSAGE
const REFRESH_MS = 1000;
const CAPS = ['read', 'act', 'navigate', 'eval', 'download'];

const $ = (id) => document.getElementById(id);

async function ask(op, fields = {}) {
  const answer = await chrome.runtime.sendMessage({ type: MESSAGE, op, ...fields });
  if (!answer?.ok) throw new Error(answer?.error ?? 'the extension did not answer');
  return answer.result;
}

// ?tabId=N (documented in popup.html) or the window's active tab.
async function currentTabId() {
  const given = Number(new URLSearchParams(location.search).get('tabId'));
  if (Number.isInteger(given) && given > 0) return given;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

export function ago(at, now = Date.now()) {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}

const el = (tag, text, className) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
};

// What a site no rule names gets (host.state policy.default; a host before
// "ask" sends none: allow).
const FALLBACK = {
  ask: 'agents ask you before they use a site',
  allow: 'agents may read, act and navigate everywhere',
  deny: 'agents may use no site',
};

export function policyText(policy) {
  if (!policy) return '—';
  if (policy.state === 'none') return `no policy file: ${FALLBACK[policy.default] ?? FALLBACK.allow}`;
  if (policy.state === 'malformed') return `${policy.path} is malformed — everything is denied (${policy.error ?? ''})`;
  const rules = `${policy.rules} rule${policy.rules === 1 ? '' : 's'}`;
  return `${policy.path} (${rules}${policy.default === 'ask' ? '; other sites: agents ask you' : ''})`;
}

function renderLink(s) {
  const c = $('connection');
  c.textContent = s.connected ? 'connected' : 'not connected';
  c.classList.toggle('connected', s.connected);
  $('host-version').textContent = s.host ? `tabbridge-host ${s.host.version} (pid ${s.host.pid})` : '—';
  $('browser').textContent = `${s.browser.name} ${s.browser.version}`.trim();
  $('policy').textContent = policyText(s.policy);
  $('link-error').hidden = s.connected;
  $('link-error').textContent = s.connected ? '' : `The host is not running${s.lastError ? ` (${s.lastError})` : ''}: ` +
    'run `tabbridge doctor` to see why.';
}

function renderTab(s) {
  const tab = s.tab;
  $('tab-title').textContent = tab ? tab.title || '(untitled)' : 'no tab';
  $('tab-url').textContent = tab?.url ?? '';
  const verdict = $('tab-verdict');
  verdict.className = 'verdict';
  let caps = '';
  if (!tab) {
    verdict.textContent = '';
  } else if (!tab.agentUrl) {
    verdict.textContent = 'Agents cannot see or act on this tab (only http, https and file pages are theirs).';
    verdict.classList.add('denied');
  } else if (!tab.policy) {
    verdict.textContent = 'Whether agents may act here is unknown: not connected.';
  } else if (tab.policy.error) {
    verdict.textContent = `The host did not say whether agents may act here: ${tab.policy.error}`;
  } else {
    const act = tab.policy.caps.act;
    verdict.textContent = act.allowed ? `Agents may act on ${tab.policy.site}.`
      : act.ask ? `Agents ask you before they act on ${tab.policy.site}.`
        : `Agents may not act on ${tab.policy.site}: ${act.reason}.`;
    if (!act.ask) verdict.classList.add(act.allowed ? 'allowed' : 'denied');
    // ✓ allowed, ? asked of you (docs/policy.md "Asking the person"), ✗ denied
    caps = CAPS.map((c) => `${c} ${tab.policy.caps[c]?.allowed ? '✓' : tab.policy.caps[c]?.ask ? '?' : '✗'}`).join('  ');
    const readOnly = tab.policy.sessions.filter((x) => x.read && !x.act).map((x) => x.id);
    if (act.allowed && readOnly.length) caps += ` — read-only session ${readOnly.join(', ')}: read only`;
  }
  $('tab-caps').textContent = caps;

  const tools = tab?.ownTools ?? { total: 0, tools: [] };
  const list = $('own-tools');
  list.replaceChildren(...tools.tools.map((t) => {
    const li = el('li');
    li.dataset.tool = t.name;
    li.append(el('span', t.name, 'tool-name'), el('span', ` (${t.source}${t.readOnly ? ', read-only' : ''})`, 'meta'));
    if (t.description) li.title = t.description;
    return li;
  }));
  $('own-tools-count').textContent = tools.total ? `(${tools.total}${tools.api ? `, ${tools.api} WebMCP` : ''})` : '';
  $('own-tools-none').hidden = tools.tools.length > 0;

  const here = tab ? s.sessions.filter((x) => x.focusedTabId === tab.id) : [];
  const detach = $('detach');
  detach.disabled = here.length === 0;
  detach.textContent = here.length ? `Detach ${here.length === 1 ? 'the agent' : `${here.length} agents`} from this tab`
    : 'Detach agents from this tab';
}

function renderSessions(s) {
  $('session-count').textContent = s.sessions.length ? `(${s.sessions.length})` : '';
  $('sessions-none').hidden = s.sessions.length > 0;
  $('sessions').replaceChildren(...s.sessions.map((x) => {
    const li = el('li');
    li.dataset.sessionId = String(x.id);
    const name = `${x.client.name || 'unknown client'}${x.client.version ? ` ${x.client.version}` : ''}`;
    li.append(el('span', `${name}${x.readOnly ? ' (read-only)' : ''}`, 'client'));
    const focus = x.focusedTab ? `on tab ${x.focusedTab.id}: ${x.focusedTab.title || x.focusedTab.url}`
      : x.focusedTabId !== null ? `on tab ${x.focusedTabId}` : 'no tab focused';
    const f = el('span', focus, 'focus meta');
    if (x.focusedTabId !== null) f.dataset.tabId = String(x.focusedTabId);
    li.append(f);
    const last = el('span', x.lastTool ? `last tool: ${x.lastTool.name}, ${ago(x.lastTool.at)}` : 'no tool called yet',
      'last-tool meta');
    if (x.lastTool) last.dataset.tool = x.lastTool.name;
    li.append(last);
    const button = el('button', 'Disconnect', 'disconnect');
    button.type = 'button';
    button.title = 'Close this agent\'s connection to the browser';
    button.addEventListener('click', () => act('disconnect', { sessionId: x.id }));
    li.append(button);
    return li;
  }));
}

// A grant as one line: "github.com — read, navigate · always" / "· this session (claude-code)".
export function grantText(g) {
  const scope = g.scope === 'always' ? 'always'
    : `this session${g.client ? ` (${g.client})` : g.sessionId !== null ? ` ${g.sessionId}` : ''}`;
  return `${g.site}${g.access.length ? ` — ${g.access.join(', ')}` : ''} · ${scope}`;
}

function renderGrants(s) {
  const grants = s.grants ?? [];
  $('grant-count').textContent = grants.length ? `(${grants.length})` : '';
  $('grants-none').hidden = grants.length > 0;
  $('grants').replaceChildren(...grants.map((g) => {
    const li = el('li');
    li.dataset.site = g.site;
    li.dataset.scope = g.scope;
    li.append(el('span', grantText(g), 'grant'));
    const button = el('button', 'Revoke', 'revoke');
    button.type = 'button';
    button.title = g.scope === 'always' ? 'Remove this rule from your policy file' : 'Take this back from the session';
    button.addEventListener('click', () => act('revoke', { site: g.site, scope: g.scope, sessionId: g.sessionId }));
    li.append(button);
    return li;
  }));
}

let tabId = null;
let renders = 0;

async function refresh() {
  try {
    const s = await ask('state', { tabId });
    renderLink(s);
    renderTab(s);
    renderSessions(s);
    renderGrants(s);
    $('error').hidden = true;
  } catch (e) {
    $('error').hidden = false;
    $('error').textContent = `tabbridge: ${e.message}`;
  }
  document.body.dataset.renders = String(++renders); // tests wait for a render after an action
}

async function act(op, fields) {
  const shown = $('action-error');
  try {
    await ask(op, fields);
    shown.hidden = true;
  } catch (e) {
    shown.hidden = false;
    shown.textContent = `${op} failed: ${e.message}`;
  }
  await refresh();
}

async function main() {
  tabId = await currentTabId();
  $('detach').addEventListener('click', () => act('detach', { tabId }));
  await refresh();
  setInterval(refresh, REFRESH_MS);
}

if (globalThis.chrome?.runtime?.id) main();
