// The sandbox networks, mounted at /sandbox when NETWORKS=sandbox (or served alone by `herald sandbox serve`):
// the simulator of every network in the registry that has one, each speaking its network's wire format
// (paths, fields, states, error bodies) so the connectors run unchanged over real HTTP. Each network's
// consent side comes first, for connecting accounts. Simulators are loaded here only, so nothing else in
// Herald loads them.
import express from 'express';
import type { Db } from '../../db/connect.ts';
import { systemClock, type Clock } from '../../runtime/clock.ts';
import type { Config } from '../../runtime/config.ts';
import { NETWORKS, PLATFORMS } from '../index.ts';
import { sandboxBase } from './address.ts';
import type { SimulatorContext } from './simulator.ts';
import { sandboxState } from './state.ts';

/**
 * Chaos runs only (SANDBOX_ANSWER_LOST_PERCENT): that share of the simulators' successful POST and PUT calls lose
 * their answer. The simulator has done what the call asked (committed, as a network that accepted the post), then
 * the connection is cut before the answer leaves, so the caller cannot tell whether its call went through.
 */
function losingAnswers(config: Config, faults: { answersLost: number }): express.RequestHandler {
  return (req, res, next) => {
    const percent = config.sandboxAnswerLostPercent;
    if (percent > 0 && (req.method === 'POST' || req.method === 'PUT') && Math.random() * 100 < percent) {
      const end = res.end.bind(res) as (...args: unknown[]) => express.Response;
      res.end = ((...args: unknown[]) => {
        if (res.statusCode < 200 || res.statusCode >= 300) return end(...args);
        faults.answersLost += 1;
        req.socket.destroy();
        return res;
      }) as typeof res.end;
    }
    next();
  };
}

export async function sandboxRoutes(opts: { db: Db; config: Config; clock?: Clock }): Promise<express.Router> {
  const { db, config, clock = systemClock } = opts;
  const router = express.Router();
  const faults = { answersLost: 0 };
  // What the chaos knobs did so far, for the run that set them.
  router.get('/faults', (_req, res) => {
    res.json(faults);
  });
  const lose = losingAnswers(config, faults);
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
      clock,
      config,
    };
    router.use(`/${network}`, ...(simulator.consent ? [simulator.consent(ctx)] : []), lose, simulator.router(ctx));
  }
  return router;
}
