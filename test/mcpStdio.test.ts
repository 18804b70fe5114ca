// The stdio MCP package: packed with `npm pack`, started exactly as the MCP guide's client configurations say (the
// tarball's absolute path put in for the placeholder, from a folder that is not the tarball's), driven by the
// SDK's client; and `bin/herald mcp`, the same code.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { DATABASES, seedWorkspace, type Seeded, type TestEnv } from './support/harness.ts';
import { startListening } from './support/mcp.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const stdioDir = path.join(root, 'mcp/stdio');
const { version } = JSON.parse(fs.readFileSync(path.join(stdioDir, 'package.json'), 'utf8')) as { version: string };
/** The MCP guide's stand-in for the tarball's absolute path. */
const PLACEHOLDER = `/path/to/herald-mcp-${version}.tgz`;

interface StdioEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Every stdio server entry of the JSON blocks in the MCP guide's client configuration section. */
function guideStdioEntries(): StdioEntry[] {
  const guide = fs.readFileSync(path.join(root, 'docs/guides/mcp.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## Client configuration'), guide.indexOf('## Once connected'));
  const entries: StdioEntry[] = [];
  for (const [, block] of section.matchAll(/```json\n([\s\S]*?)```/g)) {
    const config = JSON.parse(block!) as Record<string, Record<string, Partial<StdioEntry>> | undefined>;
    for (const server of Object.values({ ...config.mcpServers, ...config.servers }))
      if (server.command) entries.push(server as StdioEntry);
  }
  return entries;
}

describe('the stdio MCP package', () => {
  let env: TestEnv;
  let origin: string;
  let stop: () => Promise<void>;
  let creator: Seeded;
  let free: Seeded;
  let packDir: string;
  /** Where the client starts the server: a folder of its own, never the tarball's. */
  let clientDir: string;
  let tarball: string;
  /** The MCP guide's command and arguments, with the tarball's absolute path for the placeholder. */
  let command: string;
  let args: string[];
  const clients: Client[] = [];

  function childEnv(extra: Record<string, string | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...extra })) if (v !== undefined) out[k] = v;
    return out;
  }

  async function stdioClient(program: string, programArgs: string[], key: string): Promise<Client> {
    const client = new Client({ name: 'herald-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: program,
        args: programArgs,
        cwd: clientDir,
        stderr: 'pipe',
        env: childEnv({ HERALD_API_KEY: key, HERALD_API_URL: `${origin}/v1` }),
      }),
    );
    clients.push(client);
    return client;
  }

  /** Runs the MCP guide's command to its exit with the given environment; returns its exit code and output. */
  function runOnce(extra: Record<string, string | undefined>) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(command, args, { cwd: clientDir, env: childEnv(extra) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  const ownLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('herald-mcp:'));

  beforeAll(async () => {
    ({ env, origin, close: stop } = await startListening(DATABASES[0]!));
    creator = await seedWorkspace(env);
    free = await seedWorkspace(env, { plan: 'free' });
    packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-mcp-pack-'));
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-mcp-client-'));
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: stdioDir });
    tarball = path.join(packDir, stdout.trim().split('\n').pop()!);
    const [entry] = guideStdioEntries();
    command = entry!.command;
    args = entry!.args.map((arg) => (arg === PLACEHOLDER ? tarball : arg));
  }, 180_000);
  afterAll(async () => {
    for (const c of clients) await c.close();
    await stop();
    for (const dir of [packDir, clientDir]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('packs to herald-mcp-<version>.tgz that depends only on the MCP SDK', async () => {
    expect(path.basename(tarball)).toBe(`herald-mcp-${version}.tgz`);
    const manifest = JSON.parse(fs.readFileSync(path.join(stdioDir, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toEqual(['@modelcontextprotocol/sdk']);
  });

  it('shows one stdio command in every client configuration and shell line, naming the package bin', () => {
    const entries = guideStdioEntries();
    expect(entries.map((e) => Object.keys(e.env).sort())).toEqual(
      entries.map(() => ['HERALD_API_KEY', 'HERALD_API_URL']),
    );
    const shown = entries.map((e) => [e.command, ...e.args].join(' '));
    expect(new Set(shown).size).toBe(1);
    expect(shown.length).toBeGreaterThanOrEqual(3);
    // The placeholder stands for an absolute path, and the command run is the package's own bin.
    expect(entries[0]!.args).toContain(PLACEHOLDER);
    const { bin } = JSON.parse(fs.readFileSync(path.join(stdioDir, 'package.json'), 'utf8'));
    expect(Object.keys(bin)).toContain(entries[0]!.args.at(-1));
    // The same command wherever the documentation shows one.
    for (const file of ['docs/guides/mcp.md', 'mcp/stdio/README.md', 'docs/CHANGELOG.md'])
      expect(fs.readFileSync(path.join(root, file), 'utf8').replace(/\\\n\s*/g, ''), file).toContain(shown[0]);
  });

  it("starts as the MCP guide says, from another folder, and shows the server's tools for the key", async () => {
    expect(clientDir).not.toBe(path.dirname(tarball));
    const write = await stdioClient(command, args, creator.writeKey);
    expect((await write.listTools()).tools).toHaveLength(19);
    const whoami = await write.callTool({ name: 'service_whoami', arguments: {} });
    expect((whoami.structuredContent as any).credential).toMatchObject({ kind: 'api_key', scopes: ['read', 'write'] });
  }, 180_000);

  it("gives a Free workspace's key the read-only MCP, and hides write tools with -32602", async () => {
    const client = await stdioClient(command, args, free.writeKey);
    expect((await client.listTools()).tools).toHaveLength(11);
    const hidden = await client.callTool({ name: 'service_create_upload', arguments: {} }).catch((e: unknown) => e);
    expect(hidden).toBeInstanceOf(McpError);
    expect((hidden as McpError).code).toBe(-32602);
  }, 180_000);

  it('stops at start with one clear line and a non-zero exit for a missing key, a wrong key or no server', async () => {
    const missing = await runOnce({ HERALD_API_KEY: undefined, HERALD_API_URL: `${origin}/v1` });
    const wrong = await runOnce({ HERALD_API_KEY: 'hld_wrong', HERALD_API_URL: `${origin}/v1` });
    const down = await runOnce({ HERALD_API_KEY: creator.readKey, HERALD_API_URL: 'http://127.0.0.1:9/v1' });
    for (const [result, words] of [
      [missing, 'HERALD_API_KEY is not set'],
      [wrong, 'refused HERALD_API_KEY'],
      [down, 'cannot reach Herald'],
    ] as const) {
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(ownLines(result.stderr)).toHaveLength(1);
      expect(ownLines(result.stderr)[0]).toContain(words);
    }
  }, 180_000);

  it("passes on Herald's own code, message and hint when Herald refuses a message with 413 or 429", async () => {
    const strict = await startListening(DATABASES[0]!, {
      rateLimit: { max: 6, windowMs: 600_000 },
      maxBodyBytes: 2048,
    });
    const client = new Client({ name: 'herald-test', version: '1.0.0' });
    try {
      const ws = await seedWorkspace(strict.env);
      await client.connect(
        new StdioClientTransport({
          command,
          args,
          cwd: clientDir,
          stderr: 'pipe',
          env: childEnv({ HERALD_API_KEY: ws.writeKey, HERALD_API_URL: `${strict.origin}/v1` }),
        }),
      );
      const big = await client
        .callTool({ name: 'service_get_post', arguments: { postId: 'x'.repeat(4000) } })
        .catch((e: unknown) => e);
      expect(big).toBeInstanceOf(McpError);
      expect((big as McpError).message).toMatch(/Herald answered 413 payload_too_large: .*2048 bytes/);
      expect((big as McpError).message).toContain('service_create_upload');
      expect((big as McpError).message).not.toMatch(/did not answer|Content-Type/);
      let limited: unknown;
      for (let i = 0; i < 20 && !limited; i++) await client.listTools().catch((e: unknown) => (limited = e));
      expect(limited).toBeInstanceOf(McpError);
      expect((limited as McpError).message).toMatch(/Herald answered 429 rate_limited: .+ Wait \d+ seconds/);
      expect((limited as McpError).data).toEqual({ status: 429, code: 'rate_limited' });
    } finally {
      await client.close();
      await strict.close();
    }
  }, 180_000);

  it('runs the same bridge as `bin/herald mcp`', async () => {
    const client = await stdioClient(path.join(root, 'bin/herald'), ['mcp'], creator.readKey);
    expect((await client.listTools()).tools).toHaveLength(11);
  }, 60_000);
});
