// One workspace's posts: its reads (db/postReads.ts) and its writes (db/postWrites.ts), as one object.
import type { Workspace } from '../domain/credential.ts';
import type { Clock } from '../runtime/clock.ts';
import type { Db } from './connect.ts';
import type { JobScheduler } from './jobs.ts';
import { postReads } from './postReads.ts';
import { postWrites } from './postWrites.ts';

export function postsData(db: Db, workspace: Workspace, clock: Clock, jobs?: JobScheduler) {
  return { ...postReads(db, workspace.id), ...postWrites(db, workspace.id, clock, jobs) };
}

export type PostsData = ReturnType<typeof postsData>;
