// How a file's objects are named in storage. Everything of one file lies under its own prefix, and
// a copy made from the original (say, a JPEG for Instagram) is named by extending the original's
// key, so deleting by prefix takes the copies along.
import { randomUUID } from 'node:crypto';

interface Owned {
  workspaceId: string;
  id: string;
}

/** Every object of a file: what deleting the file removes. */
export function mediaPrefix(media: Owned): string {
  return `${media.workspaceId}/${media.id}/`;
}

/** A fresh key per upload attempt: two PUTs racing on one address never write the same object. */
export function newOriginalKey(media: Owned): string {
  return `${mediaPrefix(media)}original-${randomUUID()}`;
}

/** One per file, so processing twice overwrites it. */
export function thumbnailKey(media: Owned): string {
  return `${mediaPrefix(media)}thumbnail.jpg`;
}
