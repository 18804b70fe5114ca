// GET /openapi.json: the contract, served live from the generated file (no authentication), naming this
// instance's own base URL ($PUBLIC_URL/v1) in `servers`.
import { servedContract } from '../runtime/contract.ts';
import type { Handler } from './types.ts';

export const getOpenApi: Handler<'getOpenApi'> = async ({ services }) => ({
  status: 200,
  body: servedContract(services.config.publicUrl),
});
