// A simulator request's parameters: the query and the form or JSON body together.
import type { Request } from 'express';

/** Query and form parameters together, as Graph reads them. */
export function params(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of [req.query, req.body ?? {}]) {
    for (const [name, value] of Object.entries(source as Record<string, unknown>))
      if (typeof value === 'string') out[name] = value;
  }
  return out;
}
