// Settings: one page per concern under /settings, with the tabs a person's role may open.
import { NavLink, Navigate, Route, Routes, useMatch } from 'react-router';
import { useSignedIn } from '../session.tsx';
import { PageHeader } from '../ui.tsx';
import { AuditPage } from './AuditPage.tsx';
import { BillingPage } from './BillingPage.tsx';
import { KeysPage } from './KeysPage.tsx';
import { McpClientsPage } from './McpClientsPage.tsx';
import { MembersPage } from './MembersPage.tsx';
import { PasswordPage } from './PasswordPage.tsx';
import { DisabledWebhooksBanner, WebhooksPage } from './WebhooksPage.tsx';
import { WorkspacePage } from './WorkspacePage.tsx';
import { atLeast, type Role } from './settingsApi.ts';

const TABS: { to: string; label: string; role: Role }[] = [
  { to: 'workspace', label: 'Workspace', role: 'member' },
  { to: 'members', label: 'Members', role: 'member' },
  { to: 'keys', label: 'API keys', role: 'administrator' },
  { to: 'mcp-clients', label: 'MCP clients', role: 'member' },
  // Open to every role: a member learns who manages them.
  { to: 'webhooks', label: 'Webhooks', role: 'member' },
  { to: 'billing', label: 'Plan and billing', role: 'administrator' },
  { to: 'audit', label: 'Audit trail', role: 'administrator' },
  { to: 'password', label: 'Password', role: 'member' },
];

export function SettingsPage() {
  const { role } = useSignedIn();
  const onWebhooks = useMatch('/settings/webhooks');
  return (
    <>
      <PageHeader title="Settings" />
      {!onWebhooks && <DisabledWebhooksBanner />}
      <nav aria-label="Settings" className="tabs">
        <ul>
          {TABS.filter((t) => atLeast(role, t.role)).map((t) => (
            <li key={t.to}>
              <NavLink to={`/settings/${t.to}`} className={({ isActive }) => (isActive ? 'tab active' : 'tab')}>
                {t.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Routes>
        <Route index element={<Navigate to="/settings/workspace" replace />} />
        <Route path="workspace" element={<WorkspacePage />} />
        <Route path="members" element={<MembersPage />} />
        <Route path="keys" element={<KeysPage />} />
        <Route path="mcp-clients" element={<McpClientsPage />} />
        <Route path="webhooks" element={<WebhooksPage />} />
        {/* Open to every role: a member who follows a quota error's upgradeUrl learns who can change the plan. */}
        <Route path="billing" element={<BillingPage />} />
        <Route path="audit" element={<AuditPage />} />
        <Route path="password" element={<PasswordPage />} />
      </Routes>
    </>
  );
}
