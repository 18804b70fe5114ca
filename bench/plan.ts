// bench/plan: POST /v1/posts/plan for 50 targets across four networks with a ready video, beside
// GET /v1/whoami measured in the same run, on SQLite and PostgreSQL. Target: plan p99 under 50 ms.
import { DateTime } from 'luxon';
import { newId } from '../domain/ids.ts';
import { benchWorkspace, createInstance, load, startProcess, stopProcess, type Load } from './support.ts';
import { openDb } from '../test/support/publishingLoad.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 4;
const PLATFORMS = ['youtube', 'instagram', 'facebook', 'threads'];

/** A processed 30-second vertical video, as the media pipeline leaves one. */
async function seedReadyVideo(env: NodeJS.ProcessEnv, workspaceId: string): Promise<string> {
  const db = openDb(env);
  const root = await db('folders').where({ workspace_id: workspaceId, is_root: 1 }).first('id');
  const id = newId('med');
  const now = new Date().toISOString();
  await db('media').insert({
    id,
    workspace_id: workspaceId,
    folder_id: root.id,
    status: 'ready',
    filename: 'clip.mp4',
    mime: 'video/mp4',
    size: 12_000_000,
    stored_bytes: 12_000_000,
    kind: 'video',
    width: 1080,
    height: 1920,
    duration_seconds: 30,
    frame_rate: 30,
    video_codec: 'h264',
    audio_codec: 'aac',
    created_at: now,
    updated_at: now,
  });
  await db.destroy();
  return id;
}

function row(name: string, r: Load): string {
  return (
    `${name.padEnd(34)} ${r.reqPerSec.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ` +
    `${String(r.p99).padStart(3)} ms  errors ${r.errors + r.non2xx}`
  );
}

async function benchDatabase(kind: 'sqlite' | 'postgres'): Promise<void> {
  const instance = await createInstance(kind);
  const { env, base } = instance;
  const { workspaceId, accountIds, key } = benchWorkspace(
    env,
    Array.from({ length: 50 }, (_, i) => PLATFORMS[i % 4]!),
    'read',
  );
  const mediaId = await seedReadyVideo(env, workspaceId);
  const server = await startProcess(['serve'], env, 'Herald is listening');
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const body = JSON.stringify({
    targets: { accountIds },
    mediaIds: [mediaId],
    text: 'Autumn sale: 30% off everything until Sunday. #autumn',
    title: 'Autumn sale',
    tags: ['autumn', 'sale'],
    perPlatform: { youtube: { visibility: 'unlisted', category: '22' }, instagram: { contentType: 'reel' } },
    when: {
      publishAt: DateTime.now().setZone('Europe/Berlin').plus({ days: 3 }).toFormat("yyyy-MM-dd'T'HH:mm"),
      timezone: 'Europe/Berlin',
    },
  });
  try {
    const probe = await fetch(`${base}/v1/posts/plan`, { method: 'POST', headers, body });
    const plan = (await probe.json()) as { ok: boolean; rows: unknown[] };
    if (probe.status !== 200 || !plan.ok || plan.rows.length !== 50)
      throw new Error(`plan did not pass: ${probe.status} ${JSON.stringify(plan).slice(0, 400)}`);
    await load(`${base}/v1/posts/plan`, {
      connections: CONNECTIONS,
      seconds: 2,
      headers,
      method: 'POST',
      body,
    });
    const whoami = await load(`${base}/v1/whoami`, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      headers,
    });
    const planned = await load(`${base}/v1/posts/plan`, {
      connections: CONNECTIONS,
      seconds: SECONDS,
      headers,
      method: 'POST',
      body,
    });
    console.log(`\n${kind}: ${CONNECTIONS} connections, ${SECONDS} s each`);
    console.log(`${row('GET /v1/whoami', whoami)}  (baseline)`);
    console.log(
      `${row('POST /v1/posts/plan (50 targets)', planned)}  p99 ratio ` +
        `${(planned.p99 / Math.max(1, whoami.p99)).toFixed(1)}x  ` +
        `${planned.p99 < 50 ? 'ok' : 'MISSED (target p99 < 50 ms)'}`,
    );
  } finally {
    await stopProcess(server);
    await instance.remove();
  }
}

const kinds = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
for (const kind of kinds) await benchDatabase(kind);
