// Herald's rules and the simulators count limits each from the network's documentation, in separate code:
// at a limit both accept, one past it both refuse. A miscount on either side fails here instead of
// passing on both. YouTube: title 100 characters, description 5000 UTF-8 bytes, tags 500 as YouTube counts.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connector } from '../networks/connector.ts';
import { connectorFor } from '../networks/connectors.ts';
import type { PostContent } from '../networks/rules.ts';
import { youtubeRules } from '../networks/youtube/rules.ts';
import { seedWorkspace, type Seeded } from './support/harness.ts';
import { makeVideo, tempDir, upload } from './support/mediaFiles.ts';
import { connectorJob, listeningHerald, networkError, publishable, sandboxAccount } from './support/network.ts';

interface Fields {
  title: string;
  text: string;
  tags: string[];
}

const base: Fields = { title: 'Spring sale', text: 'Everything must go.', tags: [] };
/** Each limit exactly at its value, and one unit past it, in the network's own unit. */
const CASES: [name: string, issue: string, reason: string, at: Partial<Fields>, over: Partial<Fields>][] = [
  [
    'title, 100 characters (emoji count one each)',
    'title_too_long',
    'invalidTitle',
    { title: '🎉'.repeat(50) + 'a'.repeat(50) },
    { title: '🎉'.repeat(50) + 'a'.repeat(51) },
  ],
  [
    'description, 5000 UTF-8 bytes',
    'caption_too_long',
    'invalidDescription',
    { text: 'é'.repeat(2500) },
    { text: 'é'.repeat(2500) + 'a' },
  ],
  [
    'tags, 500 characters with commas and quotes',
    'tags_too_long',
    'invalidTags',
    // 49 tags of 9 characters, one of 8 with a space (10 with its quotes) and 49 commas: exactly 500.
    { tags: [...Array.from({ length: 49 }, (_, i) => `tag${String(i).padStart(6, '0')}`), 'two wrds'] },
    { tags: [...Array.from({ length: 49 }, (_, i) => `tag${String(i).padStart(6, '0')}`), 'two words'] },
  ],
];

describe('YouTube limits in Herald and in its simulator', () => {
  let env: Awaited<ReturnType<typeof listeningHerald>>;
  let ws: Seeded;
  let youtube: Connector;
  let videoId: string;
  const dir = tempDir();

  beforeAll(async () => {
    env = await listeningHerald('sqlite', { mediaSweepMs: 0 });
    ws = await seedWorkspace(env, { plan: 'agency' });
    youtube = connectorFor('youtube', env.config, env.services.clock)!;
    videoId = (
      await upload(env, ws.writeKey, makeVideo(dir, { seconds: 2, width: 640, height: 360, fps: 25 }), 'video/mp4')
    ).id;
  });
  afterAll(async () => {
    await env.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const issues = (fields: Fields) => {
    const post: PostContent = { ...fields, media: [], settings: {}, settingFiles: {} };
    return youtubeRules.check(post).map((i) => i.code);
  };
  const publish = async (fields: Fields) => {
    const job = connectorJob({
      account: await sandboxAccount(env, ws.workspaceId, 'youtube'),
      media: await publishable(env, ws.workspaceId, [videoId]),
      text: fields.text,
      settings: { visibility: 'unlisted', category: '22' },
    });
    Object.assign(job, { title: fields.title, tags: fields.tags });
    return youtube.publish(job);
  };

  for (const [name, issue, reason, at, over] of CASES) {
    it(`${name}: both accept the limit, both refuse one past it`, async () => {
      expect(issues({ ...base, ...at })).not.toContain(issue);
      expect(issues({ ...base, ...over })).toContain(issue);
      await expect(publish({ ...base, ...at })).resolves.toMatchObject({ externalId: expect.any(String) });
      expect((await networkError(publish({ ...base, ...over }), 'youtube_rejected')).message).toContain(reason);
    });
  }
});
