// The Graph connectors' transport (networks/httpExchange.ts) against a real HTTP server on 127.0.0.1: what it
// sends, what it answers, that it keeps its connection, and how it gives up on a silent or absent server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpExchange } from '../../networks/httpExchange.ts';

let server: http.Server;
let base: string;
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string; port: number }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, port: req.socket.remotePort! });
      if (req.url === '/silent') return; // never answers
      res.writeHead(400, { 'content-type': 'application/json', 'retry-after': '30' });
      res.end(JSON.stringify({ error: { message: 'Ça ne va pas', code: 100 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('httpExchange', () => {
  it('sends the method, headers and form body, and answers the status, headers and whole text', async () => {
    const answer = await httpExchange(new URL(`${base}/v25.0/123/feed?fields=id`), {
      method: 'POST',
      headers: { authorization: 'Bearer t0k', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=Gr%C3%BC%C3%9Fe',
      timeoutMs: 5000,
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['retry-after']).toBe('30');
    expect(JSON.parse(answer.text)).toEqual({ error: { message: 'Ça ne va pas', code: 100 } });
    const request = seen.at(-1)!;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/v25.0/123/feed?fields=id',
      body: 'message=Gr%C3%BC%C3%9Fe',
    });
    expect(request.headers).toMatchObject({ authorization: 'Bearer t0k', 'content-length': '23' });
  });

  it('keeps the connection for the next exchange', async () => {
    const get = { method: 'GET' as const, headers: {}, timeoutMs: 5000 };
    await httpExchange(new URL(`${base}/a`), get);
    await httpExchange(new URL(`${base}/b`), get);
    expect(seen.at(-1)!.port).toBe(seen.at(-2)!.port);
  });

  it('gives up on a server that falls silent, naming the wait', async () => {
    await expect(
      httpExchange(new URL(`${base}/silent`), { method: 'GET', headers: {}, timeoutMs: 300 }),
    ).rejects.toThrow('no answer within 0.3 s');
  });

  it('rejects with the reason when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      httpExchange(new URL(`http://127.0.0.1:${port}/`), { method: 'GET', headers: {}, timeoutMs: 5000 }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
