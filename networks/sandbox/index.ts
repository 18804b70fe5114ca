// The sandbox networks, mounted at /sandbox when NETWORKS=sandbox: one simulator per network, each
// speaking its network's wire format (paths, fields, states, error bodies) so the connectors run
// unchanged over real HTTP. A published item has a page at its externalUrl. Each network's consent side
// (consent.ts) comes first, for connecting accounts.
import express from 'express';
import type { Db } from '../../db/connect.ts';
import type { Platform } from '../rules.ts';
import { consentRoutes } from './consent.ts';
import { facebookSimulator } from './facebook.ts';
import { instagramSimulator } from './instagram.ts';
import { sandboxState, type SandboxState } from './state.ts';
import { threadsSimulator } from './threads.ts';
import { youtubeSimulator } from './youtube.ts';

export interface SimulatorContext {
  state: SandboxState;
  db: Db;
  /** This simulator's own base address, e.g. http://localhost:8080/sandbox/threads. */
  base: string;
  /** Where simulators keep uploaded bytes. */
  dataDir: string;
  /** How long a simulator takes to process a video before it can be published. */
  processingMs: number;
}

export interface Simulator {
  network: Platform;
  router(ctx: SimulatorContext): express.Router;
}

/** The registry: a network's simulator is one module and one line here. */
export const SIMULATORS: Partial<Record<Platform, Simulator>> = {};
SIMULATORS.instagram = instagramSimulator;
SIMULATORS.facebook = facebookSimulator;
SIMULATORS.threads = threadsSimulator;
SIMULATORS.youtube = youtubeSimulator;

export function sandboxBase(publicUrl: string, network: Platform): string {
  return `${publicUrl}/sandbox/${network}`;
}

export function sandboxRoutes(opts: { db: Db; publicUrl: string; dataDir: string; processingMs: number }): express.Router {
  const router = express.Router();
  for (const simulator of Object.values(SIMULATORS)) {
    const ctx: SimulatorContext = { state: sandboxState(opts.db, simulator.network), db: opts.db, base: sandboxBase(opts.publicUrl, simulator.network),
      dataDir: opts.dataDir, processingMs: opts.processingMs };
    router.use(`/${simulator.network}`, consentRoutes(simulator.network, ctx), simulator.router(ctx));
  }
  return router;
}
