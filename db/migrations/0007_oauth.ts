// OAuth 2.1 for the remote MCP server, where Herald is its own authorization server: registered clients
// (RFC 7591), single-use authorization codes, grants (one per consent: person, workspace, client, scopes)
// and their tokens. Codes and tokens are stored as SHA-256 hashes only.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('oauth_clients', (t) => {
    t.string('id').primary();
    /** The registration metadata as the client sent it (redirect_uris, client_name, ...), JSON. */
    t.text('metadata').notNullable();
    /** Confidential clients only: the secret sealed with HERALD_SECRET (the token endpoint compares it). */
    t.text('secret_sealed');
    t.string('created_at').notNullable();
  });
  await db.schema.createTable('oauth_grants', (t) => {
    t.string('id').primary();
    t.string('client_id').notNullable().references('oauth_clients.id').onDelete('CASCADE');
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('scopes').notNullable();
    t.string('resource').notNullable();
    t.string('created_at').notNullable();
    t.string('last_used_at');
    t.string('revoked_at');
    t.index(['user_id', 'workspace_id']);
  });
  await db.schema.createTable('oauth_codes', (t) => {
    t.string('code_hash').primary();
    t.string('client_id').notNullable().references('oauth_clients.id').onDelete('CASCADE');
    t.string('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.string('scopes').notNullable();
    t.text('redirect_uri').notNullable();
    t.string('code_challenge').notNullable();
    t.string('resource').notNullable();
    t.string('expires_at').notNullable();
    /** Set when the code is exchanged; a second exchange revokes the grant it gave. */
    t.string('grant_id');
  });
  await db.schema.createTable('oauth_tokens', (t) => {
    t.string('token_hash').primary();
    t.string('grant_id').notNullable().references('oauth_grants.id').onDelete('CASCADE');
    /** access (1 hour) or refresh (rotated on every use). */
    t.string('kind').notNullable();
    t.string('expires_at').notNullable();
    t.string('created_at').notNullable();
    /** Refresh tokens: when it was exchanged; a second use is a reuse and revokes the grant. */
    t.string('used_at');
    t.index(['grant_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['oauth_tokens', 'oauth_codes', 'oauth_grants', 'oauth_clients'])
    await db.schema.dropTableIfExists(table);
}
