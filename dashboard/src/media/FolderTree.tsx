// Nested folders: pick one, create a subfolder, rename, move under another, delete when empty.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, type Folder } from '../api.ts';
import { folderKeys } from '../queries/folders.ts';
import { useRefresh } from '../queries/refresh.ts';
import { Button, Confirm, ErrorNote } from '../ui.tsx';

type Tree = { folder: Folder; depth: number }[];

export function FolderTree({
  tree,
  selected,
  onSelect,
}: {
  tree: Tree;
  selected: string | undefined;
  onSelect: (id: string) => void;
}) {
  const refresh = useRefresh();
  const [editing, setEditing] = useState<'new' | 'rename' | 'move' | null>(null);
  const current = tree.find((t) => t.folder.id === selected)?.folder;
  const isRoot = current?.parentId === null;
  const done = () => {
    setEditing(null);
    return refresh(folderKeys.all);
  };
  const save = useMutation({
    mutationFn: async ({ current, f }: { current: Folder; f: FormData }) => {
      if (editing === 'new') {
        const made = await call(
          api.POST('/folders', { body: { name: String(f.get('name')).trim(), parentId: current.id } }),
        );
        onSelect(made.id);
      } else if (editing === 'rename') {
        await call(
          api.PATCH('/folders/{folderId}', {
            params: { path: { folderId: current.id } },
            body: { name: String(f.get('name')).trim() },
          }),
        );
      } else if (editing === 'move') {
        await call(
          api.PATCH('/folders/{folderId}', {
            params: { path: { folderId: current.id } },
            body: { parentId: String(f.get('parentId')) },
          }),
        );
      }
    },
    onSuccess: done,
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (current) save.mutate({ current, f: new FormData(e.currentTarget) });
  };
  return (
    <nav className="folders" aria-label="Folders">
      <ul>
        {tree.map(({ folder, depth }) => (
          <li key={folder.id} style={{ paddingInlineStart: `${depth * 0.9}rem` }}>
            <button
              type="button"
              className={`folder ${folder.id === selected ? 'active' : ''}`}
              aria-current={folder.id === selected ? 'true' : undefined}
              onClick={() => onSelect(folder.id)}
            >
              {folder.name}
            </button>
          </li>
        ))}
      </ul>
      {current && editing === null && (
        <div className="folder-actions">
          <Button tone="ghost" onClick={() => setEditing('new')}>
            New folder
          </Button>
          {!isRoot && (
            <Button tone="ghost" onClick={() => setEditing('rename')}>
              Rename
            </Button>
          )}
          {!isRoot && (
            <Button tone="ghost" onClick={() => setEditing('move')}>
              Move
            </Button>
          )}
          {!isRoot && (
            <Confirm
              trigger={<Button tone="ghost">Delete</Button>}
              title={`Delete the folder ${current.name}?`}
              tone="danger"
              action="Delete folder"
              description={<p>Only an empty folder can be deleted: move or delete its files and subfolders first.</p>}
              onConfirm={async () => {
                await call(
                  api.DELETE('/folders/{folderId}', {
                    params: { path: { folderId: current.id }, query: { confirm: true } },
                  }),
                );
                onSelect(current.parentId!);
                await done();
              }}
            />
          )}
        </div>
      )}
      {current && editing && (
        <form className="folder-form" onSubmit={submit}>
          {editing === 'move' ? (
            <label>
              Move {current.name} into
              <select name="parentId">
                {tree
                  .filter((t) => t.folder.id !== current.id)
                  .map(({ folder, depth }) => (
                    <option key={folder.id} value={folder.id}>
                      {'\u00a0\u00a0'.repeat(depth)}
                      {folder.name}
                    </option>
                  ))}
              </select>
            </label>
          ) : (
            <label>
              {editing === 'new' ? `New folder in ${current.name}` : 'New name'}
              {/* biome-ignore lint/a11y/noAutofocus: the field opens on a click on New folder or Rename. */}
              <input name="name" required defaultValue={editing === 'rename' ? current.name : ''} autoFocus />
            </label>
          )}
          <ErrorNote error={save.error} />
          <div className="actions">
            <Button tone="primary" type="submit" busy={save.isPending}>
              {editing === 'new' ? 'Create' : editing === 'move' ? 'Move' : 'Rename'}
            </Button>
            <Button
              onClick={() => {
                setEditing(null);
                save.reset();
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      )}
    </nav>
  );
}
