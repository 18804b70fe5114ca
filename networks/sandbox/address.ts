// Where Herald finds the sandbox networks (NETWORKS=sandbox), and the app it is registered as on them.
// Kept apart from the simulators so that connectors and connect flows can name them without loading them.
import type { Platform } from '../rules.ts';

/** Where a network's simulator answers: SANDBOX_URL (`herald sandbox serve`) when set, else PUBLIC_URL/sandbox. */
export function sandboxBase(config: { publicUrl: string; sandboxUrl?: string }, network: Platform): string {
  return `${config.sandboxUrl ?? `${config.publicUrl}/sandbox`}/${network}`;
}

/** Herald's app on every sandbox network (Herald sends it in sandbox mode; the networks know no other). */
export const SANDBOX_CLIENT = { id: 'herald-sandbox', secret: 'herald-sandbox-secret' };
