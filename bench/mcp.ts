// bench/mcp: the tool service_get_post through the remote MCP endpoint (one stateless JSON-RPC POST per call)
// beside GET /v1/posts/{postId} in the same run, at 20 connections, on SQLite and on PostgreSQL.
// Target: MCP at least 60% of REST's calls per second, with p99 under 30 ms.
import { DateTime } from 'luxon';
import { benchWorkspace, createInstance, load, startProcess, stopProcess, type Load } from './support.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;

function line(name: string, r: Load): string {
  return (
    `${name.padEnd(34)} ${r.reqPerSec.toFixed(0).padStart(7)} calls/s  p50 ${String(r.p50).padStart(3)} ms  ` +
    `p99 ${String(r.p99).padStart(3)} ms` +
    `  errors ${r.errors + r.non2xx}`
  );
}

async function benchDatabase(kind: 'sqlite' | 'postgres'): Promise<void> {
  const instance = await createInstance(kind);
  const { env, base: origin } = instance;
  const {
    accountIds: [accountId],
    key,
  } = benchWorkspace(env, ['threads'], 'read,write');
  const server = await startProcess(['serve'], env, 'Herald is listening');
  const headers = { Authorization: `Bearer ${key}` };
  try {
    const publishAt = DateTime.now().setZone('Europe/Berlin').plus({ days: 3 }).toFormat("yyyy-MM-dd'T'HH:mm");
    const created = (await fetch(`${origin}/v1/posts`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        targets: { accountIds: [accountId] },
        mediaIds: [],
        text: 'Bench post',
        confirm: true,
        when: { publishAt, timezone: 'Europe/Berlin' },
      }),
    }).then((r) => r.json())) as { posts: { id: string }[] };
    const postId = created.posts[0]!.id;
    const rest = `${origin}/v1/posts/${postId}`;
    const mcp = {
      method: 'POST' as const,
      headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'service_get_post', arguments: { postId } },
      }),
    };
    const probe = (await fetch(`${origin}/mcp`, mcp).then((r) => r.json())) as {
      result?: { isError?: boolean; structuredContent?: { id: string } };
    };
    if (probe.result?.isError || probe.result?.structuredContent?.id !== postId)
      throw new Error(`service_get_post failed: ${JSON.stringify(probe)}`);

    // Warm up both, then measure each one alone on the machine.
    await load(rest, { connections: CONNECTIONS, seconds: 2, headers });
    await load(`${origin}/mcp`, { connections: CONNECTIONS, seconds: 2, ...mcp });
    const restLoad = await load(rest, { connections: CONNECTIONS, seconds: SECONDS, headers });
    const mcpLoad = await load(`${origin}/mcp`, { connections: CONNECTIONS, seconds: SECONDS, ...mcp });
    const ratio = mcpLoad.reqPerSec / restLoad.reqPerSec;
    const ok = ratio >= 0.6 && mcpLoad.p99 < 30 && mcpLoad.errors + mcpLoad.non2xx === 0;
    console.log(`\n${kind}: ${CONNECTIONS} connections, ${SECONDS} s each`);
    console.log(`${line('GET /v1/posts/{postId}', restLoad)}  (baseline)`);
    console.log(
      `${line('MCP tools/call service_get_post', mcpLoad)}  ratio ${(ratio * 100).toFixed(0)}%  ` +
        (ok ? 'ok' : 'MISSED (target >=60%, p99 <30 ms)'),
    );
  } finally {
    await stopProcess(server);
    await instance.remove();
  }
}

const kinds = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
for (const kind of kinds) await benchDatabase(kind);
