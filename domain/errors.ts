// The error catalogue: every failure anywhere is an ApiError that renders as {code, message, hint}.
// `code` is stable; `message` states the fact; `hint` says what to do.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint: string,
    /** Extra fields of the body, e.g. quota numbers or plan rows. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface ErrorBody {
  code: string;
  message: string;
  hint: string;
  [field: string]: unknown;
}

/** The wire form of an error; quota errors gain the address where the plan can be upgraded. */
export function errorBody(err: ApiError, publicUrl: string): ErrorBody {
  const body: ErrorBody = { code: err.code, message: err.message, hint: err.hint, ...err.extra };
  if (err instanceof QuotaExceededError) body.upgradeUrl = `${publicUrl}/app/settings/billing`;
  return body;
}

export const unauthenticated = () =>
  new ApiError(
    401,
    'unauthenticated',
    'The API key or session is missing, wrong or revoked.',
    'Send Authorization: Bearer <API_KEY> with a key from Settings, API keys in the dashboard, or sign in again.',
  );

export const insufficientScope = (needed: string) =>
  new ApiError(
    403,
    'insufficient_scope',
    `This credential lacks the ${needed} scope this call needs.`,
    `Use a key created with the ${needed} scope.`,
  );

/**
 * The call that lists each kind of id, named in its not_found hint: over MCP a list tool's route reads as
 * the tool's name (scripts/agentWords.ts); the others stay REST calls, the dashboard's under /auth.
 */
const LIST_CALLS = {
  account: 'GET /accounts',
  group: 'GET /groups',
  media: 'GET /media',
  folder: 'GET /folders',
  post: 'GET /posts',
  webhook: 'GET /webhooks',
  delivery: 'GET /webhooks/{webhookId}/deliveries',
  'API key': 'GET /auth/keys',
  'MCP grant': 'GET /auth/mcp-grants',
  member: 'GET /auth/members',
  'pending invitation': 'GET /auth/members',
  workspace: 'GET /auth/workspaces',
} as const;

/** What a not_found answer can name. */
export type Findable = keyof typeof LIST_CALLS;

/** The words of every not_found answer. */
export const notFoundWords = (what: Findable, id: string) => ({
  message: `No ${what} with id ${id} exists in this workspace.`,
  hint: `Take ${what} ids from ${LIST_CALLS[what]}.`,
});

export const notFound = (what: Findable, id: string) => {
  const { message, hint } = notFoundWords(what, id);
  return new ApiError(404, 'not_found', message, hint);
};

/**
 * What a human must be shown before each confirmed operation (by operationId), and where its `confirm` goes. Only
 * creating posts has a plan to show; the others change one post or account, or remove one file or folder.
 */
const CONFIRMS = {
  createPosts: { show: 'Show the plan (`POST /posts/plan`) to a human', inQuery: false },
  reschedulePost: {
    show: 'Tell a human which post changes, and how (its new time or its new content)',
    inQuery: false,
  },
  swapPostTimes: { show: 'Tell a human which two posts exchange their times, and what the times are', inQuery: false },
  reschedulePosts: { show: 'Tell a human which posts move, and to what times', inQuery: false },
  retryPost: { show: 'Tell a human which post is sent again now, and why it failed (its `error`)', inQuery: false },
  cancelPost: { show: 'Tell a human which post will not be published (it becomes a draft again)', inQuery: false },
  deletePost: { show: 'Tell a human which post will be deleted, for good', inQuery: true },
  deleteMedia: { show: 'Tell a human which file will be deleted (its bytes go too)', inQuery: true },
  deleteFolder: { show: 'Tell a human which folder will be deleted', inQuery: true },
  // The dashboard's POST /auth/accounts/{accountId}/disconnect.
  disconnectAccount: {
    show: 'Tell the person which account is disconnected and that its queued posts are cancelled',
    inQuery: false,
  },
} as const;

export const confirmRequired = (action: string, operation: keyof typeof CONFIRMS) => {
  const { show, inQuery } = CONFIRMS[operation];
  // The MCP server says `confirm=true` in the query as the argument `confirm: true` (scripts/agentWords.ts).
  const confirm = inQuery ? '`confirm=true` in the query' : '`confirm: true`';
  return new ApiError(
    409,
    'confirm_required',
    `${action} needs confirm: true; nothing was changed.`,
    `${show}, then repeat the call with ${confirm} once they agreed.`,
  );
};

/**
 * What a message states, as fields a program reads without parsing the sentence (the contract's Error and Issue):
 * the request field at fault, the bound it is held to, and what the request has.
 */
export interface Facts {
  field?: string;
  limit?: number | string | boolean;
  actual?: number | string | boolean;
}

/** Why an invitation or a password reset link cannot be used: the `actual` of its refusal. */
export type Unusable = 'used' | 'expired' | 'withdrawn' | 'altered' | 'missing';

export const invalidRequest = (
  message: string,
  hint = 'Fix the named field and send the request again.',
  facts: Facts = {},
) => new ApiError(400, 'invalid_request', message, hint, { ...facts });

/** Over a rate limit until `retryAt` (epoch ms); `extra` says more of the limit (the workspace's post creations). */
export const rateLimited = (retryAt: number, now: number, message: string, extra: Record<string, unknown> = {}) => {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  return new ApiError(
    429,
    'rate_limited',
    message,
    `Wait ${seconds} seconds, then try again.`,
    { retryAt: new Date(now + seconds * 1000).toISOString(), ...extra },
    { 'Retry-After': String(seconds) },
  );
};

/**
 * The disk (or PostgreSQL's) is full: SQLite's SQLITE_FULL, a file write's ENOSPC or EDQUOT, PostgreSQL's disk_full
 * (53100). A write that meets it is rolled back whole, so the answer can say that nothing of it was kept.
 */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === '53100';
}

export const insufficientStorage = () =>
  new ApiError(
    507,
    'insufficient_storage',
    "The server's disk is full: nothing of this request was kept.",
    'Send the same request again later; the operator must free space on the server (`herald doctor` shows it).',
  );

/** Seconds a client waits before sending again a request that met the database out of reach. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

export const databaseUnavailable = () =>
  new ApiError(
    503,
    'service_unavailable',
    'Herald lost its connection to its database while answering; this request may not have been done.',
    `Wait ${DATABASE_RETRY_AFTER_SECONDS} seconds (Retry-After), then send the same request again, with the same ` +
      'Idempotency-Key so that it is done once.',
    {},
    { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
  );

/** The plan's limits a quota error can name (the contract's QuotaError.quota). */
export type QuotaName =
  | 'accounts'
  | 'members'
  | 'postsPerMonth'
  | 'storageBytes'
  | 'maxFileBytes'
  | 'api'
  | 'groups'
  | 'webhooks';

/**
 * Quota errors carry the numbers and the limit's name (a file over the per-file limit names its `size` field too);
 * the server adds upgradeUrl, which depends on PUBLIC_URL.
 */
export class QuotaExceededError extends ApiError {
  constructor(
    message: string,
    hint: string,
    readonly limit: number,
    readonly used: number,
    readonly quota: QuotaName,
    facts: Facts = {},
  ) {
    super(402, 'quota_exceeded', message, hint, { limit, used, quota, ...facts });
  }
}
