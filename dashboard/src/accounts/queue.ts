// An account's queue as its page shows it: the coming queued posts and the free posting times between them, in time
// order, and what moving a post one step does. Pure: the page reads the posts and the posting times. The free times
// come from the server's own picker (domain/postingQueue.ts), so the page shows exactly what "Add to queue" gives.
import { DateTime } from 'luxon';
import { freeTimes, type Slot } from '../../../domain/postingQueue.ts';
import type { Post } from '../api.ts';

/** A time of the queue: a queued post on it, or a free posting time. */
export interface QueueEntry {
  /** The instant (ISO). */
  at: string;
  post?: Post;
}

/** The queued posts of the coming `days` and the posting times no post holds, in time order (posts first on a tie). */
export function queueEntries(posts: Post[], slots: Slot[], zone: string, nowMs: number, days: number): QueueEntry[] {
  const end = DateTime.fromMillis(nowMs, { zone }).plus({ days }).toMillis();
  const queued = posts.filter((p) => p.status === 'queued' && p.publishAt && Date.parse(p.publishAt) < end);
  const taken = new Set(queued.map((p) => Date.parse(p.publishAt!)));
  const free = freeTimes(slots, zone, nowMs, taken, days * slots.length + 1).filter((ms) => ms < end);
  const entries: QueueEntry[] = [
    ...queued.map((post) => ({ at: new Date(Date.parse(post.publishAt!)).toISOString(), post })),
    ...free.map((ms) => ({ at: new Date(ms).toISOString() })),
  ];
  return entries.sort((a, b) => a.at.localeCompare(b.at) || Number(Boolean(b.post)) - Number(Boolean(a.post)));
}

/** The entry a post moves to one step earlier (-1) or later (+1): another post (the two swap) or a free time. */
export function stepTarget(entries: QueueEntry[], postId: string, step: -1 | 1): QueueEntry | undefined {
  const i = entries.findIndex((e) => e.post?.id === postId);
  return i < 0 ? undefined : entries[i + step];
}

/** The entries by local day in the zone ("2026-03-23"), days in order. */
export function byLocalDay(entries: QueueEntry[], zone: string): [string, QueueEntry[]][] {
  const days = new Map<string, QueueEntry[]>();
  for (const e of entries) {
    const day = DateTime.fromISO(e.at, { zone }).toISODate()!;
    days.set(day, [...(days.get(day) ?? []), e]);
  }
  return [...days.entries()];
}

/** A free time as reschedule takes it: the local date and time in the zone. */
export function localWhen(at: string, zone: string): { publishAt: string; timezone: string } {
  return { publishAt: DateTime.fromISO(at, { zone }).toFormat("yyyy-MM-dd'T'HH:mm"), timezone: zone };
}
