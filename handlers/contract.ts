// GET /openapi.json: the contract, served live from the generated file (no authentication).
import { loadContract } from '../runtime/contract.ts';
import type { Handler } from './types.ts';

export const getOpenApi: Handler<'getOpenApi'> = async () => ({ status: 200, body: loadContract() });
