// Every implemented operation, by operationId. An operation of the contract missing here answers 501.
import * as accounts from './accounts.ts';
import * as analytics from './analytics.ts';
import * as contract from './contract.ts';
import * as folders from './folders.ts';
import * as groups from './groups.ts';
import * as media from './media.ts';
import * as posts from './posts.ts';
import type { Handlers } from './types.ts';
import * as whoami from './whoami.ts';

export const handlers: Handlers = { ...whoami, ...accounts, ...groups, ...media, ...folders, ...posts, ...analytics, ...contract };
