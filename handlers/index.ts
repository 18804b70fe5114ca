// Every implemented operation, by operationId. An operation of the contract missing here answers 501.
import * as accounts from './accounts.ts';
import * as contract from './contract.ts';
import * as groups from './groups.ts';
import type { Handlers } from './types.ts';
import * as whoami from './whoami.ts';

export const handlers: Handlers = { ...whoami, ...accounts, ...groups, ...contract };
