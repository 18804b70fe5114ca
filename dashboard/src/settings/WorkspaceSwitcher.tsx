// The workspace menu of the shell: shown when the person belongs to more than one; switching points the
// session at the other workspace, and nothing cached for the previous one stays on screen.
import { authApi, call } from '../api.ts';
import { useResetSession } from '../session.tsx';
import { useWorkspaces } from '../queries/workspaces.ts';

/** `onSwitching` hears when a switch begins and ends: in between, the page shows neither workspace. */
export function WorkspaceSwitcher({ onSwitching }: { onSwitching?: (switching: boolean) => void }) {
  const list = useWorkspaces();
  const reset = useResetSession();
  if (!list.data || list.data.workspaces.length < 2) return null;
  const change = async (workspaceId: string) => {
    onSwitching?.(true);
    try {
      await call(authApi.POST('/workspaces/switch', { body: { workspaceId } }));
      await reset();
    } finally {
      onSwitching?.(false);
    }
  };
  return (
    <div className="field">
      <label htmlFor="workspace-switch">Workspace</label>
      <select id="workspace-switch" value={list.data.currentWorkspaceId} onChange={(e) => change(e.target.value)}>
        {list.data.workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </div>
  );
}
