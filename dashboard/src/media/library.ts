// The media library's folders as the folder list shows them. The library's queries are in queries/media.ts and
// queries/folders.ts.
import type { Folder } from '../api.ts';

/** Folders as an indented list, parents first: "Library", "  Campaigns", "    Autumn". */
export function folderTree(folders: Folder[]): { folder: Folder; depth: number }[] {
  const out: { folder: Folder; depth: number }[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const f of folders.filter((x) => x.parentId === parentId).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push({ folder: f, depth });
      walk(f.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
