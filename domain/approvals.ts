// Approvals: which creators' posts wait for an owner's or administrator's decision in the dashboard.
export const APPROVAL_CREATORS = ['members', 'apiKeys', 'mcpClients'] as const;
export type ApprovalCreator = (typeof APPROVAL_CREATORS)[number];

/**
 * Whether a post this caller (a Credential) would queue waits for approval instead: `via` is the interface it came
 * through. Typed by the two fields it reads, as credential.ts imports this module's ApprovalCreator.
 */
export function needsApproval(
  cred: { role?: string; workspace: { approvalRequiredFor: readonly ApprovalCreator[] } },
  via: 'api' | 'dashboard' | 'mcp',
): boolean {
  const required = cred.workspace.approvalRequiredFor;
  return (
    (required.includes('members') && cred.role === 'member') ||
    (required.includes('apiKeys') && via === 'api') ||
    (required.includes('mcpClients') && via === 'mcp')
  );
}

/** The stored setting (a JSON array), keeping only the creators this version knows. */
export function readApprovalSetting(text: string | null | undefined): ApprovalCreator[] {
  const parsed: unknown = JSON.parse(text || '[]');
  return APPROVAL_CREATORS.filter((c) => Array.isArray(parsed) && parsed.includes(c));
}
