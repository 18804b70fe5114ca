// The operator commands other than serve and worker, loaded by cli/herald.ts only when one of them runs.
import { parseArgs } from 'node:util';
import { Info } from 'luxon';
import {
  createApiKey,
  createWorkspace,
  findUserByEmail,
  findWorkspace,
  listApiKeys,
  revokeApiKeyByPrefix,
  setPasswordHash,
  workspaceOwner,
} from '../db/identity.ts';
import { COMMAND_BUSY_TIMEOUT_MS } from '../db/connect.ts';
import { migrate } from '../db/migrate.ts';
import { workspaceData, type AccountStatus } from '../db/workspaceData.ts';
import { parseScopes } from '../domain/credential.ts';
import { ApiError, errorBody } from '../domain/errors.ts';
import type { CommandName } from './commandNames.ts';
import { randomBase62 } from '../domain/ids.ts';
import { isPlanName, PLAN_NAMES } from '../domain/plans.ts';
import { loadConfig } from '../runtime/config.ts';
import { createServices, type Services } from '../runtime/services.ts';
import { commandFailure } from './output.ts';
import { hashPassword } from '../signin/passwords.ts';
import { NETWORKS, PLATFORMS } from '../networks/index.ts';
import { queueFailure, registerSandboxAccount, sandboxToken, SCENARIOS } from '../networks/sandbox/state.ts';

const STATUSES: AccountStatus[] = ['ok', 'expired', 'revoked'];

export class UsageError extends ApiError {
  constructor(message: string, hint: string) {
    super(400, 'invalid_request', message, hint);
  }
}

function options(args: string[], spec: Record<string, { required?: boolean }>): Record<string, string | undefined> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: Object.fromEntries(Object.keys(spec).map((name) => [name, { type: 'string' as const }])),
      strict: true,
    });
  } catch (err) {
    throw new UsageError(
      (err as Error).message,
      `Options: ${Object.keys(spec)
        .map((o) => '--' + o)
        .join(', ')}.`,
    );
  }
  for (const [name, { required }] of Object.entries(spec)) {
    if (required && !parsed.values[name])
      throw new UsageError(
        `--${name} is required.`,
        `Options: ${Object.keys(spec)
          .map((o) => '--' + o)
          .join(', ')}.`,
      );
  }
  return parsed.values as Record<string, string | undefined>;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], option: string): T {
  if (!allowed.includes(value as T))
    throw new UsageError(
      `--${option} must be one of ${allowed.join(', ')}; got "${value}".`,
      `Pick one of ${allowed.join(', ')}.`,
    );
  return value as T;
}

async function workspaceArg(services: Services, ref: string) {
  const ws = await findWorkspace(services.db, ref);
  if (!ws)
    throw new ApiError(
      404,
      'not_found',
      `No workspace with id or slug "${ref}".`,
      'Use the workspaceId printed by `herald workspace create`.',
    );
  return ws;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

type Command = (services: Services, args: string[]) => Promise<object>;

const COMMANDS: Record<CommandName, Command> = {
  async 'workspace create'(services, args) {
    const o = options(args, { name: { required: true }, plan: { required: true }, tz: {}, email: {}, currency: {} });
    if (!isPlanName(o.plan!)) oneOf(o.plan!, PLAN_NAMES, 'plan');
    const tz = o.tz ?? 'UTC';
    if (!Info.isValidIANAZone(tz))
      throw new UsageError(
        `--tz "${tz}" is not an IANA time zone.`,
        'Use a zone such as Europe/Berlin or America/New_York.',
      );
    if (o.email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(o.email))
      throw new UsageError(`--email "${o.email}" is not an email address.`, 'Give an address like name@example.com.');
    const currency = (o.currency ?? 'USD').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency))
      throw new UsageError(
        `--currency "${o.currency}" is not a currency code.`,
        'Use a three-letter code such as USD or EUR.',
      );
    return createWorkspace(services.db, { name: o.name!, plan: o.plan as never, tz, email: o.email ?? null, currency });
  },

  async 'key create'(services, args) {
    const o = options(args, { workspace: { required: true }, name: { required: true }, scopes: { required: true } });
    let scopes;
    try {
      scopes = parseScopes(o.scopes!);
    } catch {
      throw new UsageError(
        `--scopes "${o.scopes}" is not read or read,write.`,
        'Use --scopes read or --scopes read,write.',
      );
    }
    const ws = await workspaceArg(services, o.workspace!);
    const owner = await workspaceOwner(services.db, ws.id);
    if (!owner)
      throw new ApiError(
        404,
        'not_found',
        `Workspace ${ws.id} has no owner.`,
        'Create the workspace again with herald workspace create.',
      );
    const { key } = await createApiKey(services.db, { workspaceId: ws.id, userId: owner.id, name: o.name!, scopes });
    return { key };
  },

  async 'key list'(services, args) {
    const o = options(args, { workspace: { required: true } });
    const ws = await workspaceArg(services, o.workspace!);
    // The shape docs/guides/operating.md documents for operators: no ids, no creators.
    const keys = await listApiKeys(services.db, ws.id);
    return {
      keys: keys.map(({ name, prefix, scopes, createdAt, lastUsedAt }) => ({
        name,
        prefix,
        scopes,
        createdAt,
        lastUsedAt,
      })),
    };
  },

  async 'key revoke'(services, args) {
    const o = options(args, { workspace: { required: true }, prefix: { required: true } });
    const ws = await workspaceArg(services, o.workspace!);
    const outcome = await revokeApiKeyByPrefix(services.db, ws.id, o.prefix!);
    if (outcome === 'none') {
      throw new ApiError(
        404,
        'not_found',
        `Workspace ${ws.id} has no working key with prefix "${o.prefix}".`,
        'Copy the prefix from `herald key list --workspace W`.',
      );
    }
    if (outcome === 'ambiguous') {
      throw new ApiError(
        409,
        'prefix_ambiguous',
        `Several working keys of workspace ${ws.id} start with "${o.prefix}"; none was revoked.`,
        'Revoke the key in the dashboard (Settings, API keys), where each key has its own row.',
      );
    }
    return { revoked: true };
  },

  async 'account add-sandbox'(services, args) {
    const o = options(args, {
      workspace: { required: true },
      platform: { required: true },
      name: { required: true },
      status: {},
    });
    if (services.config.networks !== 'sandbox') {
      throw new ApiError(
        409,
        'sandbox_only',
        'Sandbox accounts exist only when NETWORKS=sandbox.',
        'Connect real accounts in the dashboard, or unset NETWORKS.',
      );
    }
    const platform = oneOf(o.platform!, PLATFORMS, 'platform');
    if (!NETWORKS[platform].simulator)
      throw new UsageError(
        `${platform} has no simulator in the sandbox, so no sandbox account can be made for it here.`,
        `Connect a ${platform} account in the dashboard instead (docs/guides/connecting.md says how in the sandbox).`,
      );
    const status = oneOf(o.status ?? 'ok', STATUSES, 'status');
    const ws = await workspaceArg(services, o.workspace!);
    const externalId = `sandbox-${platform}-${randomBase62(10)}`;
    // The account exists on the sandbox network first, with its tokens in the state asked for.
    await registerSandboxAccount(services.db, platform, { id: externalId, name: o.name!, tokens: status });
    const data = workspaceData(services.db, ws, services.clock);
    const account = await data.accounts.add({
      platform,
      displayName: o.name!,
      status,
      externalId,
      tokenSealed: services.keyring.encrypt(sandboxToken('access', externalId)),
    });
    return { accountId: account.id };
  },

  async 'sandbox fail'(services, args) {
    const o = options(args, { account: { required: true }, scenario: { required: true }, times: {} });
    if (services.config.networks !== 'sandbox') {
      throw new ApiError(
        409,
        'sandbox_only',
        'Sandbox failures exist only when NETWORKS=sandbox.',
        'Unset NETWORKS to use the sandbox networks.',
      );
    }
    const scenario = oneOf(o.scenario!, SCENARIOS, 'scenario');
    const times = Number(o.times ?? 1);
    if (!Number.isInteger(times) || times < 1 || times > 1000)
      throw new UsageError(
        `--times must be a whole number from 1 to 1000; got "${o.times}".`,
        'Give --times N, or leave it out for one failure.',
      );
    const account = await services.db('accounts').where({ id: o.account }).first('id', 'platform', 'external_id');
    if (!account)
      throw new ApiError(
        404,
        'not_found',
        `No account with id "${o.account}".`,
        'Use the accountId printed by `herald account add-sandbox`.',
      );
    await queueFailure(services.db, { network: account.platform, account: account.external_id, scenario, times });
    return { accountId: account.id, scenario, times };
  },

  async 'user set-password'(services, args) {
    const o = options(args, { email: { required: true } });
    const user = await findUserByEmail(services.db, o.email!);
    if (!user)
      throw new ApiError(404, 'not_found', `No user with email ${o.email}.`, 'Create a workspace with --email first.');
    const password = process.env.HERALD_PASSWORD ?? (await readStdin());
    if (password.length < 10)
      throw new UsageError(
        'The password must be at least 10 characters.',
        'Pipe the password on standard input, or set HERALD_PASSWORD.',
      );
    await setPasswordHash(services.db, user.id, await hashPassword(password));
    return { userId: user.id };
  },
};

/** Runs one command against a migrated database; prints its JSON object and returns the exit code. */
export async function runCommand(name: CommandName, args: string[]): Promise<number> {
  let services: Services | undefined;
  try {
    const config = loadConfig();
    services = createServices({
      ...config,
      sqliteBusyTimeoutMs: config.sqliteBusyTimeoutMs ?? COMMAND_BUSY_TIMEOUT_MS,
    });
    await migrate(services.db);
    process.stdout.write(JSON.stringify(await COMMANDS[name](services, args)) + '\n');
    return 0;
  } catch (failure) {
    const err = commandFailure(failure);
    const body =
      err instanceof ApiError
        ? errorBody(err, services?.config.publicUrl ?? loadConfig().publicUrl)
        : {
            code: 'internal',
            message: (err as Error).message,
            hint: 'Check DATABASE_URL and DATA_DIR, then try again.',
          };
    process.stderr.write(JSON.stringify(body) + '\n');
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await services?.close();
  }
}
