// {docs_url} = $PUBLIC_URL/docs: the guides that `make docs` renders from docs/guides/*.md (static pages with one
// stylesheet), the agent files generated from the contract (llms.txt, skill.md), the API reference that
// `make docs` builds with Redocly (one self-contained HTML file), and the change log.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express, { type Response } from 'express';
import { PUBLIC_URL } from '../scripts/agentDocs.ts';
import { SITE_DIR } from '../scripts/docsPages.ts';

const GENERATED = new URL('../generated/', import.meta.url);
const DOCS = new URL('../docs/', import.meta.url);
/** Built by `make docs` from openapi.yaml (not committed: a 2.6 MB output of the contract). */
export const REFERENCE_FILE = new URL('reference.html', DOCS);
/** The base URL the contract names for a default local instance; the reference shows this instance's instead. */
const CONTRACT_BASE_URL = 'http://localhost:8080/v1';

export function docsRoutes(publicUrl: string) {
  const router = express.Router();
  const fill = (text: string) => text.replaceAll(PUBLIC_URL, publicUrl);
  const files = {
    llms: fill(fs.readFileSync(new URL('llms.txt', GENERATED), 'utf8')),
    skill: fill(fs.readFileSync(new URL('skill.md', GENERATED), 'utf8')),
    changelog: fs.readFileSync(new URL('CHANGELOG.md', DOCS), 'utf8'),
  };
  /** The reference as sent, with its ETag: 2.6 MB encoded and hashed once, not on the event loop at each request. */
  let reference: { body: Buffer; etag: string } | undefined;

  const text = (res: Response, type: string, body: string | Buffer) =>
    res.type(type).set('Cache-Control', 'no-cache').send(body);

  // The guides' pages, read once they are built; nothing in them is loaded from elsewhere.
  let site: Map<string, string> | undefined;
  const sitePage = (name: string) => {
    if (site === undefined && fs.existsSync(new URL('index.html', SITE_DIR))) {
      site = new Map(
        fs.readdirSync(SITE_DIR).map((file) => [file, fill(fs.readFileSync(new URL(file, SITE_DIR), 'utf8'))]),
      );
    }
    return site?.get(name);
  };
  const notBuilt = (res: Response, what: string) =>
    res.status(404).json({
      code: 'not_found',
      message: `The ${what} has not been built on this instance.`,
      hint: 'Run `make docs` (make run does it), or read the contract at /v1/openapi.json.',
    });
  const guide = (res: Response, file: string) => {
    const html = sitePage(file);
    if (html === undefined && !site) return notBuilt(res, 'documentation');
    if (html === undefined) {
      return res
        .status(404)
        .json({ code: 'not_found', message: 'There is no such documentation page.', hint: 'Start from /docs.' });
    }
    res
      .type(path.extname(file))
      .set('Cache-Control', 'no-cache')
      .set('Content-Security-Policy', "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'")
      .send(html);
  };

  router.get('/docs', (_req, res) => guide(res, 'index.html'));
  router.get('/docs/style.css', (_req, res) => guide(res, 'style.css'));
  router.get('/docs/llms.txt', (_req, res) => text(res, 'text/plain; charset=utf-8', files.llms));
  router.get('/docs/skill.md', (_req, res) => text(res, 'text/markdown; charset=utf-8', files.skill));
  router.get('/docs/changelog.md', (_req, res) => text(res, 'text/markdown; charset=utf-8', files.changelog));
  router.get('/docs/reference', (_req, res) => {
    if (reference === undefined && fs.existsSync(REFERENCE_FILE)) {
      const html = fs.readFileSync(REFERENCE_FILE, 'utf8').replaceAll(CONTRACT_BASE_URL, `${publicUrl}/v1`);
      const body = Buffer.from(html, 'utf8');
      reference = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    }
    if (reference === undefined) return notBuilt(res, 'API reference');
    // An ETag set here is one express does not compute again.
    text(res.set('ETag', reference.etag), 'text/html; charset=utf-8', reference.body);
  });
  router.get('/docs/:page', (req, res, next) =>
    /^[a-z-]+$/.test(req.params.page) && req.params.page !== 'index' ? guide(res, `${req.params.page}.html`) : next(),
  );
  return router;
}
