// @atproto/api, loaded at the first Bluesky call rather than at start: loading it costs a quarter of a second of
// CPU, which every `herald serve` and `herald worker` start (after a crash too) would spend whether or not a
// workspace has a Bluesky account.
import { createRequire } from 'node:module';

type Atproto = typeof import('@atproto/api');
let loaded: Atproto | undefined;

export function atproto(): Atproto {
  loaded ??= createRequire(import.meta.url)('@atproto/api') as Atproto;
  return loaded;
}

/** An XRPC error answer (a server's refusal, with its status and error name). */
export function isXrpcError(err: unknown): err is import('@atproto/api').XRPCError {
  return err instanceof atproto().XRPCError;
}
