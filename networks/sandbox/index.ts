// The sandbox networks, mounted at /sandbox when NETWORKS=sandbox (or served alone by `herald sandbox serve`):
// the simulator of every network in the registry that has one, each speaking its network's wire format
// (paths, fields, states, error bodies) so the connectors run unchanged over real HTTP. Each network's
// consent side comes first, for connecting accounts. Simulators are loaded here only, so nothing else in
// Herald loads them.
import express from 'express';
import type { Db } from '../../db/connect.ts';
import type { Config } from '../../runtime/config.ts';
import { NETWORKS, PLATFORMS } from '../index.ts';
import { sandboxBase } from './address.ts';
import type { SimulatorContext } from './simulator.ts';
import { sandboxState } from './state.ts';

export async function sandboxRoutes(opts: { db: Db; config: Config }): Promise<express.Router> {
  const { db, config } = opts;
  const router = express.Router();
  for (const network of PLATFORMS) {
    const simulator = await NETWORKS[network].simulator?.();
    if (!simulator) continue;
    const ctx: SimulatorContext = {
      network,
      state: sandboxState(db, network),
      db,
      base: sandboxBase(config, network),
      appUrl: config.publicUrl,
      dataDir: config.dataDir,
      processingMs: config.sandboxProcessingMs,
    };
    router.use(`/${network}`, ...(simulator.consent ? [simulator.consent(ctx)] : []), simulator.router(ctx));
  }
  return router;
}
