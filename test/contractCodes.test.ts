// Every status and error code a handler can answer is in the contract: the list is built from the source
// (test/support/handlerErrors.ts) plus what the request chain (server/api.ts, server/rateLimit.ts)
// answers for every operation, and each (operation, status, code) must have that status among the
// operation's responses with the code named, in backticks, in the response's description.
import fs from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { operations } from '../generated/operations.ts';
import {
  type ApiError,
  confirmRequired,
  errorBody,
  insufficientScope,
  notFound,
  unauthenticated,
} from '../domain/errors.ts';
import { assertApiAccess, assertCanCreatePosts, assertFileFits, assertMonthQuota } from '../domain/quotas.ts';
import { OPERATION_ROLES } from '../domain/roles.ts';
import type { OperationId } from '../handlers/types.ts';
import { handlerErrors, type ErrorAnswer } from './support/handlerErrors.ts';

type Example = Record<string, unknown>;
type Json = { example?: Example; examples?: Record<string, { value: Example }> };
type Response = { $ref?: string; description?: string; content?: { 'application/json': Json } };
type Parameter = { $ref?: string; in?: string };
type Operation = {
  operationId: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: unknown;
  responses: Record<string, Response>;
};

const contract = parse(fs.readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response>; parameters: Record<string, Parameter> };
};
const located = (p: Parameter) => (p.$ref ? contract.components.parameters[p.$ref.split('/').pop()!]! : p).in;
const byId = new Map(
  Object.values(contract.paths)
    .flatMap((item) => Object.values(item))
    .map((op) => [op.operationId, op]),
);

/** What the request chain answers before (or instead of) the handler. */
function chainAnswers(op: Operation, scope: string): ErrorAnswer[] {
  const answers: ErrorAnswer[] = [
    { status: 429, code: 'rate_limited' },
    { status: 500, code: 'internal' },
    // The database out of reach for a moment (server/api.ts).
    { status: 503, code: 'service_unavailable' },
  ];
  if (op.security?.length === 0) return answers;
  // 402: any call with a Free plan's key.
  answers.push({ status: 401, code: 'unauthenticated' }, { status: 402, code: 'quota_exceeded' });
  // Path parameters are any string (an unknown id is a 404); queries and bodies can fail validation.
  if (op.parameters?.some((p) => located(p) !== 'path') || op.requestBody) {
    answers.push({ status: 400, code: 'invalid_request' });
  }
  if (scope === 'write') {
    answers.push({ status: 403, code: 'insufficient_scope' }, { status: 403, code: 'csrf_failed' });
    // A write that meets a full disk (server/api.ts).
    answers.push({ status: 507, code: 'insufficient_storage' });
  }
  // Every credential acts within its person's role (server/api.ts): a key within its maker's.
  if (OPERATION_ROLES[op.operationId as OperationId] !== 'member')
    answers.push({ status: 403, code: 'insufficient_role' });
  return answers;
}

/** The description that documents a response: the operation's own, else the shared response's. */
function describedBy(response: Response): string {
  const shared = response.$ref ? contract.components.responses[response.$ref.split('/').pop()!] : undefined;
  return `${response.description ?? ''}\n${shared?.description ?? ''}`;
}

describe('the contract lists every answer a handler can give', () => {
  it('names each (operation, status, code) the source can produce', () => {
    const found = handlerErrors();
    expect(found.get('retryPost')).toContainEqual({ status: 409, code: 'account_not_ok' });
    const missing: string[] = [];
    for (const entry of operations) {
      const op = byId.get(entry.operationId)!;
      for (const { status, code } of [...(found.get(entry.operationId) ?? []), ...chainAnswers(op, entry.scope)]) {
        const response = op.responses[String(status)];
        if (!response) missing.push(`${entry.operationId}: status ${status} (${code}) is not a response`);
        else if (!describedBy(response).includes(`\`${code}\``)) {
          missing.push(`${entry.operationId}: ${status} does not name \`${code}\``);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("shows the server's own words in the examples of the shared error answers", () => {
    const wire = (err: ApiError) => errorBody(err, 'http://localhost:8080');
    const thrown = (run: () => void) => {
      try {
        run();
      } catch (err) {
        return wire(err as ApiError);
      }
      throw new Error('nothing was refused');
    };
    const json = (name: string) => contract.components.responses[name]!.content!['application/json'];
    const named = (name: string, example: string) => json(name).examples![example]!.value;
    expect(json('Unauthenticated').example).toEqual(wire(unauthenticated()));
    expect(json('InsufficientScope').example).toEqual(wire(insufficientScope('write')));
    expect(json('NotFound').example).toEqual(wire(notFound('account', 'acc_9Zk4Tp7Rm2')));
    expect(named('Conflict', 'confirmRequired')).toEqual(wire(confirmRequired('Creating posts', 'createPosts')));
    expect(named('QuotaExceeded', 'monthlyPosts')).toEqual(thrown(() => assertMonthQuota('creator', 199, 3)));
    expect(named('QuotaExceeded', 'fileSize')).toEqual(thrown(() => assertFileFits('creator', 2684354560, 0)));
    expect(named('QuotaExceeded', 'storage')).toEqual(thrown(() => assertFileFits('creator', 48213377, 16090000000)));
    expect(named('QuotaExceeded', 'freePlan')).toEqual(thrown(() => assertApiAccess('free')));
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(named('RateLimited', 'postCreation')).toEqual(
      thrown(() =>
        assertCanCreatePosts(
          'creator',
          {
            monthUsed: 0,
            createdLastHour: 60,
            oldestLastHour: new Date(now - 3600_000 + 754_000).toISOString(),
            spentBy: { keys: 58, people: 2 },
          },
          1,
          now,
        ),
      ),
    );
  });
});
