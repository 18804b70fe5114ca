// {docs_url} = $PUBLIC_URL/docs: the agent files generated from the contract (llms.txt, skill.md), the API
// reference that `make docs` builds with Redocly (one self-contained HTML file), and the change log.
import fs from 'node:fs';
import express, { type Response } from 'express';
import { escapeHtml } from '../domain/html.ts';
import { PUBLIC_URL } from '../scripts/agentDocs.ts';

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
  let reference: string | undefined;

  const text = (res: Response, type: string, body: string) =>
    res.type(type).set('Cache-Control', 'no-cache').send(body);

  router.get('/docs', (_req, res) => {
    const links = [
      ['reference', 'API reference'],
      ['llms.txt', 'llms.txt'],
      ['skill.md', 'skill.md (for agents)'],
      ['changelog.md', 'Change log'],
    ].map(([href, label]) => `<li><a href="/docs/${href}">${escapeHtml(label!)}</a></li>`);
    res.type('html').send(`<!doctype html><meta charset="utf-8"><title>Herald docs</title><h1>Herald documentation</h1>
<ul>${links.join('')}<li><a href="/v1/openapi.json">openapi.json</a></li></ul>
<p>MCP server: <code>${escapeHtml(publicUrl)}/mcp</code></p>`);
  });
  router.get('/docs/llms.txt', (_req, res) => text(res, 'text/plain; charset=utf-8', files.llms));
  router.get('/docs/skill.md', (_req, res) => text(res, 'text/markdown; charset=utf-8', files.skill));
  router.get('/docs/changelog.md', (_req, res) => text(res, 'text/markdown; charset=utf-8', files.changelog));
  router.get('/docs/reference', (_req, res) => {
    if (reference === undefined && fs.existsSync(REFERENCE_FILE)) {
      reference = fs.readFileSync(REFERENCE_FILE, 'utf8').replaceAll(CONTRACT_BASE_URL, `${publicUrl}/v1`);
    }
    if (reference === undefined) {
      return res.status(404).json({
        code: 'not_found',
        message: 'The API reference has not been built on this instance.',
        hint: 'Run `make docs` (make run does it), or read the contract at /v1/openapi.json.',
      });
    }
    text(res, 'text/html; charset=utf-8', reference);
  });
  return router;
}
