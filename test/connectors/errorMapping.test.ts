// Each connector's error mapping against the error answers its network documents (errorBodies.ts): a
// small HTTP server on 127.0.0.1 answers the connector's publish (or token refresh) with the documented
// status, headers and body, and the connector must throw the NetworkError of the row's kind, with the
// network's own words and the wait the network named.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, type Connector, type ConnectorAccount, type PublishMedia } from '../../networks/connector.ts';
import { NETWORKS } from '../../networks/index.ts';
import type { Platform } from '../../networks/rules.ts';
import { DateTime } from 'luxon';
import { systemClock } from '../../runtime/clock.ts';
import { youtubeRules } from '../../networks/youtube/rules.ts';
import { connectorJob } from '../support/network.ts';
import {
  documentedNumbers,
  facebookErrors,
  instagramErrors,
  networkWords,
  threadsErrors,
  youtubeErrors,
  type DocumentedError,
} from './errorBodies.ts';

/** The seconds from now to the network's next daily reset (YouTube's, at midnight Pacific time), to 5 s. */
function untilDailyReset() {
  const now = DateTime.now().setZone(youtubeRules.quotaResetZone);
  return expect.closeTo(now.plus({ days: 1 }).startOf('day').diff(now).as('seconds'), -1);
}

/** What the network's happy path answers before the documented error, for a row that fails at the publish call. */
function happyAnswer(method: string, path: string): unknown {
  if (method === 'POST') return { id: '17890000000000001' };
  if (path.endsWith('_limit'))
    return { data: [{ quota_usage: 0, config: { quota_total: 50, quota_duration: 86_400 } }] };
  return { id: '17890000000000001', status_code: 'FINISHED', status: 'FINISHED' };
}

/** A network that answers every call with the current row, or, for `at: 'publish'`, only the publish call. */
async function documentedNetwork() {
  const state = { row: undefined as DocumentedError | undefined, calls: [] as string[] };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url!, 'http://x').pathname;
      state.calls.push(`${req.method} ${path}`);
      const row = state.row!;
      if (row.at === 'publish' && !/_publish$/.test(path)) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(happyAnswer(req.method!, path)));
        return;
      }
      res
        .writeHead(row.status, { 'content-type': 'application/json; charset=UTF-8', ...row.headers })
        .end(JSON.stringify(row.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { state, base, close };
}

/** A file as the worker hands it over; the network is told its address and never reaches it here. */
function file(kind: 'image' | 'video'): PublishMedia {
  const mime = kind === 'image' ? 'image/jpeg' : 'video/mp4';
  return {
    id: `med_${kind}`,
    kind,
    mime,
    size: 123_456,
    width: 1080,
    height: 1350,
    durationSeconds: kind === 'video' ? 12 : null,
    filename: `autumn.${kind === 'image' ? 'jpg' : 'mp4'}`,
    publicUrl: async () => `https://media.acme.example/autumn.${kind === 'image' ? 'jpg' : 'mp4'}`,
    open: async () => {
      throw new Error('the documented error comes before any bytes are sent');
    },
  };
}

/** The post each network's publish starts from: a video for YouTube, an image for Instagram, text for the others. */
const POSTS: Record<'youtube' | 'instagram' | 'facebook' | 'threads', { text: string; media: PublishMedia[] }> = {
  youtube: { text: 'Autumn collection', media: [file('video')] },
  instagram: { text: 'Autumn sale #shop', media: [file('image')] },
  facebook: { text: 'Autumn sale: 30% off until Sunday.', media: [] },
  threads: { text: 'Autumn sale: 30% off until Sunday.', media: [] },
};

const TABLES: [keyof typeof POSTS, DocumentedError[]][] = [
  ['youtube', youtubeErrors],
  ['instagram', instagramErrors],
  ['facebook', facebookErrors],
  ['threads', threadsErrors],
];

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe.each(TABLES)("%s: documented error answers mapped to the spec's codes", (platform: Platform, rows) => {
  let network: Awaited<ReturnType<typeof documentedNetwork>>;
  let connector: Connector;
  const account: ConnectorAccount = {
    id: 'acc_documented',
    externalId: '17841400000000001',
    displayName: 'Acme',
    credentials: {
      accessToken: 'EAAB-documented-token',
      refreshToken: '1//documented-refresh',
      expiresAt: '2026-11-24T12:00:00.000Z',
    },
  };

  beforeAll(async () => {
    network = await documentedNetwork();
    const module = NETWORKS[platform].connector!;
    // Every host the connector knows points at the documented network.
    const hosts = Object.fromEntries(Object.keys(module.liveHosts).map((name) => [name, network.base]));
    connector = module.create({
      hosts,
      client: { id: 'client-id', secret: 'client-secret' },
      fetch,
      clock: systemClock,
    });
  });
  afterAll(() => network.close());

  it.each(rows.map((row) => [`${row.status} ${row.name} -> ${platform}_${row.kind}`, row] as const))(
    '%s',
    async (_name, row) => {
      network.state.row = row;
      network.state.calls = [];
      const job = connectorJob({ account, ...POSTS[platform as keyof typeof POSTS], settings: {} });
      if (platform === 'youtube') job.title = 'Autumn collection 2026';
      const err = await failure(row.at === 'refresh' ? connector.refresh!(account) : connector.publish(job));

      expect(err, row.source).toBeInstanceOf(NetworkError);
      const error = err as NetworkError;
      expect(
        { kind: error.kind, code: error.code, retryAfterSeconds: error.retryAfterSeconds },
        `${row.source}\n${error.message}`,
      ).toEqual({
        kind: row.kind,
        code: `${platform}_${row.kind}`,
        retryAfterSeconds: row.retryAfterSeconds === 'untilDailyReset' ? untilDailyReset() : row.retryAfterSeconds,
      });
      // The network's own words, and the numbers its documentation is searched by.
      expect(error.message).toContain(networkWords(row.body));
      for (const number of documentedNumbers(row.status, row.body)) expect(error.message).toContain(number);
      // A refusal at the first call ends the attempt there: nothing else was asked of the network. One at
      // the publish call came after the container was made and found finished.
      if (row.at === 'publish') expect(network.state.calls.at(-1)).toMatch(/^POST \/v[\d.]+\/\d+\/\w+_publish$/);
      else expect(network.state.calls).toHaveLength(1);
    },
  );
});
