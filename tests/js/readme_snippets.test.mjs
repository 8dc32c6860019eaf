// docs/clients.md's client snippets (the README points there): each is valid JSON of
// its client's documented shape (Claude Code's .mcp.json, Claude Desktop's
// claude_desktop_config.json, Cursor's mcp.json: "mcpServers"; VS Code's
// .vscode/mcp.json: "servers" with "type": "stdio"), names the installed
// program, and — when a build is at hand — starts, as the client would start
// it, into an MCP initialize.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';

const repo = new URL('../../', import.meta.url).pathname;
const section = readFileSync(join(repo, 'docs/clients.md'), 'utf8');

// <!-- client: NAME --> then a ```json block.
const snippets = new Map(
  [...section.matchAll(/<!-- client: ([\w-]+) -->\n```json\n([\s\S]*?)\n```/g)].map(([, client, text]) => [
    client,
    text,
  ]),
);

// Each client's documented key for its server table.
const shapes = {
  'claude-code': { table: 'mcpServers', type: 'optional' },
  'claude-desktop': { table: 'mcpServers', type: 'absent', absolute: true },
  cursor: { table: 'mcpServers', type: 'optional' },
  vscode: { table: 'servers', type: 'required' },
};

test('docs/clients.md has a snippet for every client', () => {
  assert.ok(section, 'docs/clients.md is empty');
  assert.deepEqual([...snippets.keys()].sort(), Object.keys(shapes).sort());
});

const known = new Set(['--caps', '--read-only', '--disable-webmcp-auto-register']);

function serverOf(client) {
  const config = JSON.parse(snippets.get(client)); // throws on invalid JSON
  const shape = shapes[client];
  assert.deepEqual(Object.keys(config), [shape.table], `${client}: the top-level key is ${shape.table}`);
  const server = config[shape.table].tabbridge;
  assert.ok(server, `${client}: the server is called tabbridge`);
  if (shape.type === 'required') assert.equal(server.type, 'stdio', `${client}: "type": "stdio" is required`);
  if (shape.type === 'optional' && 'type' in server) assert.equal(server.type, 'stdio');
  if (shape.type === 'absent') assert.ok(!('type' in server), `${client}: its format has no "type"`);
  assert.equal(basename(server.command), 'tabbridge', `${client}: the command is the installed program`);
  if (shape.absolute) assert.ok(server.command.startsWith('/'), `${client}: a desktop app needs the absolute path`);
  assert.ok(Array.isArray(server.args ?? []), `${client}: args is an array`);
  for (const arg of server.args ?? []) {
    if (arg.startsWith('--')) assert.ok(known.has(arg.split('=')[0]), `${client}: tabbridge has no option ${arg}`);
  }
  for (const key of Object.keys(server)) {
    assert.ok(['type', 'command', 'args', 'env'].includes(key), `${client}: unexpected key ${key}`);
  }
  return server;
}

test('the Claude Code command adds the same program', () => {
  const line = section.match(/^claude mcp add (\S+) -- (.+)$/m);
  assert.ok(line, 'no `claude mcp add NAME -- COMMAND` line');
  assert.equal(line[1], 'tabbridge');
  assert.equal(basename(line[2].trim()), 'tabbridge');
});

// The build's tabbridge stands in for the installed one.
const build = process.env.TABBRIDGE_BUILD_DIR ?? join(repo, 'build');
const program = join(build, 'bin', 'tabbridge');

function initialize(server) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, server.args ?? [], {
      env: { ...process.env, ...(server.env ?? {}), TABBRIDGE_SOCKET_DIR: '/nonexistent/tabbridge-snippets' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('no answer to initialize within 10 s'));
    }, 10_000);
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      child.stdin.end();
      resolve(JSON.parse(out.slice(0, newline)));
    });
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'snippet', version: '1' } },
      })}\n`,
    );
  });
}

for (const client of Object.keys(shapes)) {
  test(`${client}: the snippet is the documented format`, () => {
    serverOf(client);
  });
  test(`${client}: the command starts and answers initialize`, { skip: !existsSync(program) && 'no build' }, async () => {
    const answer = await initialize(serverOf(client));
    assert.equal(answer.id, 1);
    assert.equal(answer.result?.serverInfo?.name, 'tabbridge', JSON.stringify(answer));
  });
}
