// What a network's simulator is to the sandbox (networks/<name>/simulator): express routers speaking the
// network's wire format, mounted under the simulator's base address, with the state they keep.
import type express from 'express';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../runtime/clock.ts';
import type { Config } from '../../runtime/config.ts';
import type { Platform } from '../rules.ts';
import type { SandboxState } from './state.ts';

export interface SimulatorContext {
  network: Platform;
  state: SandboxState;
  db: Db;
  /** This simulator's own base address, e.g. http://localhost:8080/sandbox/threads. */
  base: string;
  /** Herald's own address (PUBLIC_URL): redirect addresses on its origin count as registered for the app. */
  appUrl: string;
  /** Where simulators keep uploaded bytes. */
  dataDir: string;
  /** How long a simulator takes to process a video before it can be published. */
  processingMs: number;
  /** Herald's clock: what a network times by the documents (a token's life) follows the clock a test moves. */
  clock: Clock;
  /** The sandbox's settings of the operator's apps on the networks (SANDBOX_YOUTUBE_PROJECT). */
  config: Pick<Config, 'sandboxYoutubeProject'>;
}

export interface Simulator {
  /** The consent side (sign-in page, code exchange), mounted first; what it does not answer goes on to `router`. */
  consent?(ctx: SimulatorContext): express.Router;
  router(ctx: SimulatorContext): express.Router;
}
