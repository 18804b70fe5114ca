// The built dashboard at /app: client-side routes answer the app's index, hashed assets are cached for
// good, and every page carries a content security policy that allows no inline script.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../runtime/config.ts';
import { dashboardRoutes } from '../server/dashboardRoutes.ts';
import { startHerald, type TestEnv } from './support/harness.ts';

describe('dashboard serving', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-dist-'));
  const app = express().use('/app', dashboardRoutes(loadConfig({}), dir));
  let env: TestEnv;
  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><title>Herald</title><script type="module" src="/app/assets/app-1a2b.js"></script>',
    );
    fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.gz'), zlib.gzipSync('console.log(1)'));
    fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.js.br'), zlib.brotliCompressSync('console.log(1)'));
    fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.css'), 'p{margin:0}');
    fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b.css.gz'), zlib.gzipSync('p{margin:0}'));
    env = await startHerald('sqlite');
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await env.close();
  });

  it('answers every client-side route with the index, never cached, under a CSP without inline scripts', async () => {
    for (const page of [
      '/app',
      '/app/',
      '/app/calendar',
      '/app/posts/pst_123',
      '/app/accounts?error=quota_exceeded&message=x',
    ]) {
      const res = await request(app).get(page);
      expect(res.status, page).toBe(200);
      expect(res.text).toContain('<title>Herald</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp.split(';').find((d) => d.trim().startsWith('script-src'))).not.toContain('unsafe');
    }
  });

  it('caches hashed assets for good and answers 404 for a missing one instead of the index', async () => {
    const asset = await request(app).get('/app/assets/app-1a2b.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await request(app).get('/app/assets/gone-9z.js')).status).toBe(404);
  });

  /** The asset as a browser sending `accepted` gets it (supertest decodes the body by its Content-Encoding). */
  const fetched = (file: string, accepted: string) =>
    request(app).get(`/app/assets/${file}`).set('Accept-Encoding', accepted);

  it('sends the built brotli copy where brotli is accepted, else the gzip one, else the plain file', async () => {
    const brotli = await fetched('app-1a2b.js', 'gzip, deflate, br, zstd');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.text).toBe('console.log(1)');
    const gzip = await fetched('app-1a2b.js', 'gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toBe('console.log(1)');
    // Brotli refused by weight falls back to gzip.
    expect((await fetched('app-1a2b.js', 'br;q=0, gzip')).headers['content-encoding']).toBe('gzip');
    for (const res of [brotli, gzip]) {
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['cache-control']).toContain('immutable');
    }
    // A file built without a brotli copy goes as gzip to a browser that accepts both.
    const css = await fetched('app-1a2b.css', 'gzip, br');
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.text).toBe('p{margin:0}');
    const plain = await fetched('app-1a2b.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.text).toBe('console.log(1)');
    const outside = await request(app).get('/app/assets/..%2findex.html').set('Accept-Encoding', 'gzip, br');
    expect([403, 404]).toContain(outside.status);
    expect(outside.text).not.toContain('<title>Herald</title>');
  });

  it('is mounted by the server at /app with its CSP, and / leads there', async () => {
    const res = await request(env.app).get('/app/compose');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect([200, 503]).toContain(res.status);
    expect((await request(env.app).get('/')).headers.location).toBe('/app');
  });
});
