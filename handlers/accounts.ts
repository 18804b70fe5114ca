// GET /accounts: the connected accounts, the only source of account ids. Connecting happens in the
// dashboard; tokens never leave the server.
import type { Handler } from './types.ts';

export const listAccounts: Handler<'listAccounts'> = async ({ data }) => ({
  status: 200,
  body: { accounts: await data.accounts.list() },
});
