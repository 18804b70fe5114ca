// The audit trail speaks of settings in words and reads a bulk action as one line.
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../settings/settingsApi.ts';
import { auditLines, runWords, settingsChanged } from './auditWords.ts';

const ada = { id: 'usr_ada', name: 'Ada', email: 'ada@example.com' };
const bo = { id: 'usr_bo', name: 'Bo', email: 'bo@example.com' };
const event = (n: number, action: AuditEvent['action'], actor = ada, minute = 59 - n): AuditEvent => ({
  id: `aud_${n}`,
  at: `2026-11-24T10:${String(minute).padStart(2, '0')}:00.000Z`,
  actor,
  action,
  detail: {},
});

describe('audit words', () => {
  it('says a setting change as what now holds, by the setting’s name', () => {
    expect(settingsChanged({ approvalRequiredFor: { from: [], to: ['members'] } })).toBe(
      'changed the settings: posts by members now need approval',
    );
    expect(
      settingsChanged({ approvalRequiredFor: { from: ['members'], to: ['members', 'apiKeys', 'mcpClients'] } }),
    ).toBe(
      'changed the settings: posts by members, posts made with API keys and posts made by AI assistants (MCP) ' +
        'now need approval',
    );
    expect(settingsChanged({ approvalRequiredFor: { from: ['members'], to: [] } })).toBe(
      'changed the settings: no post needs approval now',
    );
    const two = settingsChanged({ name: { from: 'Acme', to: 'Acme Café' }, tz: { from: 'UTC', to: 'Europe/Kyiv' } });
    expect(two).toMatch(
      /^changed the settings: the workspace is now called “Acme Café”; times are now shown in Europe/,
    );
    expect(two).not.toMatch(/\btz\b|approvalRequiredFor/);
  });

  it('reads one person’s run of deletes as one line with the count, others as they are', () => {
    const deletes = Array.from({ length: 31 }, (_, i) => event(i, 'post.deleted'));
    const lines = auditLines([event(100, 'key.created', ada, 59), ...deletes, event(200, 'post.deleted', bo, 20)]);
    expect(lines.map((l) => (l.kind === 'one' ? l.event.id : l.events.length))).toEqual(['aud_100', 31, 'aud_200']);
    const run = lines[1]!;
    expect(run.kind === 'run' && runWords(run.events)).toBe('deleted 31 posts');
  });

  it('keeps deletes apart that lie minutes apart, or are another action', () => {
    const lines = auditLines([event(1, 'post.deleted', ada, 50), event(2, 'post.deleted', ada, 40)]);
    expect(lines.map((l) => l.kind)).toEqual(['one', 'one']);
    expect(auditLines([event(1, 'key.revoked'), event(2, 'key.revoked')]).map((l) => l.kind)).toEqual(['one', 'one']);
  });
});
