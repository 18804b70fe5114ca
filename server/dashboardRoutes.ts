// Serves the built dashboard (dashboard/dist, made by `make run` or `make dashboard`) at /app: hashed
// assets cached for good, every other /app path answered with the app's index (client-side routes),
// all under a content security policy that allows no inline script.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response } from 'express';
import type { Config } from '../runtime/config.ts';

export const DASHBOARD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dashboard/dist');

/** Scripts only from this server; media and uploads may also come from the S3 endpoint (and https file hosts). */
export function dashboardCsp(config: Config): string {
  const s3 =
    config.storage.kind === 's3' && config.storage.endpoint ? ` ${new URL(config.storage.endpoint).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Focus-trap and scroll-lock helpers of the dialog library insert small <style> elements.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${s3}`,
    `media-src 'self' blob: https:${s3}`,
    `connect-src 'self' https:${s3}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The build's copy of `file` in the best encoding the request accepts (brotli, else gzip), if there is one. */
function precompressed(req: Request, file: string): { encoding: string; path: string } | undefined {
  for (const [encoding, suffix] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (req.acceptsEncodings(encoding) === encoding && fs.existsSync(file + suffix))
      return { encoding, path: file + suffix };
  }
  return undefined;
}

export function dashboardRoutes(config: Config, dir = DASHBOARD_DIR): express.Router {
  const router = express.Router();
  const csp = dashboardCsp(config);
  router.use((req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // The policy governs documents: a script or style sheet carries none, which saves its half-kilobyte on each.
    if (!req.path.startsWith('/assets/')) {
      res.setHeader('Content-Security-Policy', csp);
      res.setHeader('Referrer-Policy', 'same-origin');
    }
    next();
  });
  // The brotli and gzip copies made at build time (dashboard/precompress.ts), for browsers that accept them.
  router.get('/assets/:file', (req, res, next) => {
    const file = path.join(dir, 'assets', path.basename(String(req.params.file)));
    res.setHeader('Vary', 'Accept-Encoding');
    const copy = /\.(js|css)$/.test(file) ? precompressed(req, file) : undefined;
    if (!copy) return next();
    res.type(path.extname(file));
    res.setHeader('Content-Encoding', copy.encoding);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.sendFile(copy.path);
  });
  router.use(
    '/assets',
    express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }),
  );
  router.use(express.static(dir, { index: false, redirect: false, maxAge: 0 }));

  const sendIndex = (res: Response) => {
    const index = path.join(dir, 'index.html');
    res.setHeader('Cache-Control', 'no-cache');
    if (fs.existsSync(index)) return res.sendFile(index);
    res
      .status(503)
      .type('text')
      .send('The dashboard is not built yet: run `make run` (or `make dashboard`) in the Herald directory.');
  };
  router.get(['/', '/*rest'], (_req, res) => sendIndex(res));
  return router;
}
