// Settings, connected MCP clients: the agents the signed-in person let in through the MCP server's OAuth
// consent (GET /auth/mcp-grants), each with its scopes and last use, and revoking one: its tokens stop at once.
import { useQuery } from '@tanstack/react-query';
import { authApi, call } from '../api.ts';
import { timeText } from '../format.ts';
import { mcpGrantKeys, mcpGrantListQuery } from '../queries/mcpGrants.ts';
import { useRefresh } from '../queries/refresh.ts';
import { useSignedIn } from '../session.tsx';
import { Button, Confirm, Empty, ErrorNote, Loading } from '../ui.tsx';

export function McpClientsPage() {
  const { workspace } = useSignedIn();
  const refresh = useRefresh();
  const grants = useQuery(mcpGrantListQuery());
  if (grants.isPending) return <Loading label="Loading the connected clients" />;
  if (grants.isError) return <ErrorNote error={grants.error} />;
  return (
    <section className="card" aria-labelledby="mcp-title">
      <h2 id="mcp-title">Connected MCP clients</h2>
      <p className="muted">
        Agents you allowed into this workspace through the MCP server ({`${location.origin}/mcp`}).
      </p>
      {grants.data.grants.length === 0 ? (
        <Empty title="No clients connected">
          An MCP client asks for access the first time it connects; you choose read, or read and write.
        </Empty>
      ) : (
        <ul className="rows">
          {grants.data.grants.map((g) => (
            <li key={g.id} className="row">
              <div className="row-main">
                <p className="row-title">{g.clientName}</p>
                <p className="muted">
                  {g.scopes.join(' and ')} · allowed {timeText(g.createdAt, workspace.tz)} ·{' '}
                  {g.lastUsedAt ? `last used ${timeText(g.lastUsedAt, workspace.tz)}` : 'never used'}
                </p>
              </div>
              <Confirm
                trigger={
                  <Button tone="ghost">
                    Revoke<span className="sr-only"> {g.clientName}</span>
                  </Button>
                }
                title={`Revoke ${g.clientName}?`}
                tone="danger"
                action="Revoke access"
                description={<p>{g.clientName} loses access at once; it must ask again to come back.</p>}
                onConfirm={async () => {
                  await call(authApi.DELETE('/mcp-grants/{grantId}', { params: { path: { grantId: g.id } } }));
                  await refresh(mcpGrantKeys.all);
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
