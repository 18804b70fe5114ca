// What the Meta connector tests start from: a listening Herald whose simulators process videos at
// once (tests that need processing time set it on the item), a workspace with room for many accounts,
// the network's connector, and real uploaded files, two of them with their bytes deleted so that their
// signed addresses answer 404, as an unreachable PUBLIC_URL fails the network's download.
import fs from 'node:fs';
import { mediaJobsData } from '../../db/mediaData.ts';
import { expect } from 'vitest';
import type { Checkpoint, Connector, ConnectorAccount, PublishMedia } from '../../networks/connector.ts';
import { connectorFor } from '../../networks/connectors.ts';
import type { Platform } from '../../networks/rules.ts';
import { queueFailure, sandboxState, type Scenario } from '../../networks/sandbox/state.ts';
import { seedWorkspace, type DbKind, type Seeded } from './harness.ts';
import { makeImage, makeVideo, tempDir, upload } from './mediaFiles.ts';
import {
  connectorJob,
  listeningHerald,
  networkError,
  publishable,
  sandboxAccount,
  sandboxCount,
  WorkerCrash,
  type TestJob,
} from './network.ts';

export type FileName = 'jpeg' | 'png' | 'video' | 'goneImage' | 'goneVideo';

export interface ConnectorSuite {
  env: Awaited<ReturnType<typeof listeningHerald>>;
  ws: Seeded;
  connector: Connector;
  /** Media ids: a 4:5 JPEG, a square PNG, a 3-second 9:16 MP4, and an image and a video whose bytes are gone. */
  ids: Record<FileName, string>;
  /** A new account of the network (each test its own, so counts and queued failures stay apart). */
  account(status?: 'expired' | 'revoked'): Promise<ConnectorAccount>;
  files(...names: FileName[]): Promise<PublishMedia[]>;
  /** The simulator's items of one kind for the account. */
  count(account: ConnectorAccount, kind: string): Promise<number>;
  /** Publishes `job` until the worker dies at the first checkpoint `at` accepts; answers the job as it stood. */
  diedAt(job: TestJob, at: (checkpoint: Checkpoint) => boolean): Promise<TestJob>;
  /**
   * Queues one failure of `scenario` for a new account and publishes, expecting a NetworkError with
   * `code`; checks that nothing of `kind` went out and that the next attempt, the failure used up, goes
   * through. Answers the error's message.
   */
  failOnce(
    scenario: Scenario,
    code: string,
    job: (account: ConnectorAccount) => TestJob | Promise<TestJob>,
    kind: string,
  ): Promise<string>;
  /** Puts `n` items of `kind` in the simulator as published just now (a used-up publishing limit). */
  seedPublished(account: ConnectorAccount, kind: string, n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startConnectorSuite(kind: DbKind, platform: Platform): Promise<ConnectorSuite> {
  const env = await listeningHerald(kind, { sandboxProcessingMs: 0, mediaSweepMs: 0 });
  const ws = await seedWorkspace(env, { plan: 'agency' });
  const dir = tempDir();
  const put = async (file: string, mime: string) => (await upload(env, ws.writeKey, file, mime)).id as string;
  const ids: Record<FileName, string> = {
    jpeg: await put(await makeImage(dir, 'jpeg', 1080, 1350), 'image/jpeg'),
    png: await put(await makeImage(dir, 'png', 1080, 1080), 'image/png'),
    video: await put(makeVideo(dir, { seconds: 3, width: 360, height: 640, fps: 25 }), 'video/mp4'),
    goneImage: await put(await makeImage(dir, 'jpeg', 800, 800), 'image/jpeg'),
    goneVideo: await put(makeVideo(dir, { seconds: 3, width: 360, height: 640, fps: 24 }), 'video/mp4'),
  };
  for (const id of [ids.goneImage, ids.goneVideo])
    await env.services.storage.delete((await mediaJobsData(env.services.db).get(id))!.storageKey!);
  const connector = connectorFor(platform, env.config, env.services.clock)!;
  return {
    env,
    ws,
    ids,
    connector,
    account: (status) => sandboxAccount(env, ws.workspaceId, platform, status),
    files: (...names) =>
      publishable(
        env,
        ws.workspaceId,
        names.map((n) => ids[n]),
      ),
    count: (account, kind) => sandboxCount(env, platform, account, kind),
    async diedAt(job, at) {
      const dying = connectorJob({
        account: job.account,
        text: job.text,
        media: job.media,
        settings: job.settings,
        crashAt: at,
      });
      await expect(connector.publish(dying)).rejects.toBeInstanceOf(WorkerCrash);
      return dying;
    },
    async failOnce(scenario, code, job, kind) {
      const account = await sandboxAccount(env, ws.workspaceId, platform);
      await queueFailure(env.services.db, { network: platform, account: account.externalId, scenario, times: 1 });
      const err = await networkError(connector.publish(await job(account)), code);
      expect(await sandboxCount(env, platform, account, kind)).toBe(0);
      await connector.publish(await job(account));
      expect(await sandboxCount(env, platform, account, kind)).toBe(1);
      return err.message;
    },
    async seedPublished(account, kind, n) {
      const state = sandboxState(env.services.db, platform);
      for (let i = 0; i < n; i++)
        await state.create({
          id: state.newId(),
          account: account.externalId,
          kind,
          status: 'published',
          data: {},
          publishedMs: Date.now(),
        });
    },
    async close() {
      await env.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
