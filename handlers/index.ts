// Every implemented operation, by operationId. An operation of the contract missing here answers 501.
// Modules may export helpers too: only names that are operationIds of the contract are handlers.
import { operations } from '../generated/operations.ts';
import * as accounts from './accounts.ts';
import * as analytics from './analytics.ts';
import * as contract from './contract.ts';
import * as events from './events.ts';
import * as folders from './folders.ts';
import * as groups from './groups.ts';
import * as media from './media.ts';
import * as postChanges from './posts/changes.ts';
import * as postCreate from './posts/create.ts';
import * as postReads from './posts/reads.ts';
import * as postReschedule from './posts/reschedule.ts';
import * as schedules from './schedules.ts';
import type { Handlers } from './types.ts';
import * as webhooks from './webhooks.ts';
import * as whoami from './whoami.ts';

const exported: Record<string, unknown> = {
  ...whoami,
  ...accounts,
  ...groups,
  ...media,
  ...folders,
  ...postCreate,
  ...postReads,
  ...postReschedule,
  ...postChanges,
  ...schedules,
  ...analytics,
  ...events,
  ...webhooks,
  ...contract,
};

export const handlers = Object.fromEntries(
  operations
    .filter((op) => typeof exported[op.operationId] === 'function')
    .map((op) => [op.operationId, exported[op.operationId]]),
) as Handlers;
