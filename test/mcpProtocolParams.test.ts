// The protocol's own methods (initialize, ping, tools/list, logging/setLevel) with malformed params, sent as raw
// JSON-RPC over HTTP to /mcp: each is answered -32602 with one sentence saying what the method takes, never -32603
// with the SDK's raw validation dump; well-formed ones still work. The protocol touches no database: SQLite only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, seedWorkspace, type Seeded } from './support/harness.ts';
import { rpc, startListening } from './support/mcp.ts';

const INITIALIZE = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } };

describe('the protocol methods with malformed params', () => {
  let origin: string;
  let stop: () => Promise<void>;
  let ws: Seeded;

  beforeAll(async () => {
    let env;
    ({ env, origin, close: stop } = await startListening(DATABASES[0]!));
    ws = await seedWorkspace(env);
  });
  afterAll(() => stop());

  const send = (method: string, params?: unknown) =>
    rpc(origin, ws.readKey, { jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) });

  it.each([
    ['initialize', { ...INITIALIZE, protocolVersion: null }, '`params.protocolVersion`'],
    ['initialize', { ...INITIALIZE, protocolVersion: 123 }, '`params.protocolVersion`'],
    ['initialize', { ...INITIALIZE, protocolVersion: {} }, '`params.protocolVersion`'],
    ['initialize', { ...INITIALIZE, clientInfo: 'me' }, '`params.clientInfo`'],
    ['initialize', 'hello', '`params`'],
    ['initialize', [INITIALIZE], '`params`'],
    ['initialize', 42, '`params`'],
    ['initialize', undefined, '`params`'],
    ['tools/list', { cursor: null }, '`params.cursor`'],
    ['tools/list', { cursor: 5 }, '`params.cursor`'],
    ['tools/list', { task: { ttl: 1 } }, '`params.task`'],
    ['tools/list', 'page 2', '`params`'],
    ['logging/setLevel', { level: 'loud' }, '`params.level`'],
    ['logging/setLevel', {}, '`params.level`'],
    ['logging/setLevel', undefined, '`params`'],
    ['ping', 'now', '`params`'],
  ])('%s with params %j: -32602 naming %s in one sentence', async (method, params, named) => {
    const res = await send(method, params);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(7);
    expect(res.body.error.code).toBe(-32602);
    const { message } = res.body.error as { message: string };
    expect(message).toContain(named);
    expect(message).toContain(method);
    // One sentence, no dump of the validator: no JSON, no issue codes, no line breaks.
    expect(message).toMatch(/^[^\n]+\.$/);
    expect(message).not.toMatch(/invalid_type|invalid_union|"code"|\[|\n/);
    expect(message.length).toBeLessThan(300);
  });

  it('answers the well-formed ones as before', async () => {
    expect((await send('initialize', INITIALIZE)).body.result.protocolVersion).toBe('2025-06-18');
    expect((await send('ping')).body.result).toEqual({});
    expect((await send('ping', {})).body.result).toEqual({});
    expect((await send('tools/list')).body.result.tools.length).toBeGreaterThan(0);
    expect((await send('tools/list', { cursor: 'x' })).body.result.tools.length).toBeGreaterThan(0);
    expect((await send('tools/list', { _meta: { progressToken: 1 } })).body.result.tools.length).toBeGreaterThan(0);
    expect((await send('logging/setLevel', { level: 'warning' })).body.result).toEqual({});
    // A method Herald does not offer stays -32601.
    expect((await send('resources/list')).body.error.code).toBe(-32601);
  });
});
