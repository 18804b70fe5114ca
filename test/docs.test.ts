// {docs_url}: the guides rendered by `make docs`, llms.txt and skill.md generated from the contract, the Redocly
// reference that works offline, the change log; and the served contract naming this instance.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { operations } from '../generated/operations.ts';
import { NETWORKS } from '../networks/index.ts';
import { PAGES, pageHref } from '../scripts/docsPages.ts';
import { DATABASES, startHerald, type TestEnv } from './support/harness.ts';

describe('the documentation at /docs', () => {
  let env: TestEnv;
  const publicUrl = 'https://herald.example.org';

  beforeAll(async () => {
    env = await startHerald(DATABASES[0]!, { publicUrl });
  });
  afterAll(() => env.close());

  it('serves llms.txt in the llmstxt.org shape, linking the reference, skill.md and openapi.json', async () => {
    const res = await request(env.app).get('/docs/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const lines = res.text.split('\n');
    expect(lines[0]).toBe('# Herald');
    expect(lines[2]).toMatch(/^> /);
    expect(res.text).not.toContain('{PUBLIC_URL}');
    for (const link of ['/docs/reference', '/docs/skill.md', '/v1/openapi.json']) {
      expect(res.text).toMatch(new RegExp(`^- \\[[^\\]]+\\]\\(${publicUrl}${link.replace('.', '\\.')}\\)`, 'm'));
    }
    // Every H2 section holds only a list of links.
    for (const sectionText of res.text.split(/^## /m).slice(1)) {
      for (const line of sectionText.split('\n').slice(1).filter(Boolean))
        expect(line).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)]+\)(: .+)?$/);
    }
  });

  it('says llms.txt publishes to the networks with a connector, and the others are in progress', async () => {
    const summary = (await request(env.app).get('/docs/llms.txt')).text.split('\n')[2]!;
    const [publishes, inProgress = ''] = summary.split('(');
    for (const { rules, connector } of Object.values(NETWORKS)) {
      expect(publishes!.includes(rules.label), rules.label).toBe(Boolean(connector));
      expect(inProgress.includes(rules.label), rules.label).toBe(!connector);
    }
    // Every network has a connector in this version: nothing is said to be in progress.
    if (Object.values(NETWORKS).every((n) => n.connector)) expect(inProgress).toBe('');
    else expect(inProgress).toMatch(/in progress\)/);
  });

  it('serves skill.md with the rules, every tool with its scope, and the error codes', async () => {
    const res = await request(env.app).get('/docs/skill.md');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/markdown/);
    for (const op of operations.filter((o) => o.tool)) {
      expect(res.text).toMatch(new RegExp(`\\| \`${op.tool}\` \\| ${op.scope} \\|`));
    }
    for (const phrase of [
      'Show its `table` to the person unchanged',
      '`confirm: true`',
      'statusLine',
      'at most about once a minute',
      'Never ask for a key in a chat',
      '`confirm_required`',
      '`quota_exceeded`',
      '`rate_limited`',
    ]) {
      expect(res.text).toContain(phrase);
    }
    expect(res.text).toContain(`${publicUrl}/mcp`);
  });

  it('serves the API reference as one HTML file that loads nothing from elsewhere', async () => {
    const res = await request(env.app).get('/docs/reference');
    expect(res.status, 'the reference is built by `make docs`').toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).not.toMatch(/<script[^>]+src=/);
    expect(res.text).not.toMatch(/<link[^>]+rel="stylesheet"[^>]+href="http/);
    expect(res.text).toContain(`${publicUrl}/v1`);
    expect(res.text).toContain('createPosts');
    // Its ETag, made once: a reader that has it gets 304 and no body.
    const again = await request(env.app).get('/docs/reference').set('If-None-Match', res.headers.etag!);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('serves the change log and an index', async () => {
    const log = await request(env.app).get('/docs/changelog.md');
    expect(log.status).toBe(200);
    expect(log.text).toMatch(/^# Herald change log/);
    expect(log.text).toMatch(/^## 1\.1\.0$/m);
    const index = await request(env.app).get('/docs');
    expect(index.text).toContain('href="/docs/llms.txt"');
  });

  describe('the guides, built by `make docs`', () => {
    const pages = new Map<string, string>();
    beforeAll(async () => {
      for (const { slug } of PAGES) pages.set(pageHref(slug), (await request(env.app).get(pageHref(slug))).text);
    });

    it('serves every page as HTML with one stylesheet, naming this instance', async () => {
      for (const { slug } of PAGES) {
        const res = await request(env.app).get(pageHref(slug));
        expect(res.status, `${slug}: the guides are built by make docs`).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
        expect(res.headers['content-security-policy']).toContain("default-src 'none'");
        expect(res.text).toMatch(/^<!doctype html>/);
        expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
        expect(res.text.match(/<link[^>]*>/g)).toEqual(['<link rel="stylesheet" href="/docs/style.css">']);
        expect(res.text).not.toContain('{PUBLIC_URL}');
      }
      expect(pages.get('/docs/quick-start')).toContain(`export HERALD_URL=${publicUrl}`);
      const css = await request(env.app).get('/docs/style.css');
      expect(css.status).toBe(200);
      expect(css.headers['content-type']).toMatch(/^text\/css/);
      expect(css.text).not.toMatch(/@import|url\(/);
      const missing = await request(env.app).get('/docs/no-such-guide');
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('not_found');
    });

    it('links every guide from the index, and every page from every page', () => {
      const index = pages.get('/docs')!;
      const main = index.slice(index.indexOf('<main'));
      for (const { slug } of PAGES.filter((p) => p.slug !== 'index')) {
        expect(main, slug).toContain(`href="${pageHref(slug)}"`);
      }
      for (const [path, html] of pages) {
        for (const { slug } of PAGES) expect(html, path).toContain(`href="${pageHref(slug)}"`);
        expect(html, path).toContain(`aria-current="page"`);
      }
    });

    it('loads nothing from elsewhere: no scripts, every src a path here, links elsewhere only to https pages', () => {
      for (const [path, html] of pages) {
        expect(html, path).not.toMatch(/<script|<iframe|<img[^>]+src="(?!\/)/i);
        for (const [, attr, url] of html.matchAll(/\s(href|src|action)="([^"]*)"/g)) {
          // A network's guide cites the network's own pages; nothing else leaves the site.
          const elsewhere = attr === 'href' && path.startsWith('/docs/networks-') ? /^https:\/\/[a-z0-9.-]+\// : /^$/;
          expect(url, `${path}: ${attr}`).toMatch(new RegExp(`^(\\/(?!\\/)|#)|${elsewhere.source}`));
        }
      }
    });

    it('has every link inside the site resolve, anchors included', async () => {
      const links = new Set<string>();
      for (const [path, html] of pages) {
        for (const [, url] of html.matchAll(/href="([^"]*)"/g)) {
          if (!url!.startsWith('https://')) links.add(url!.startsWith('#') ? path + url : url!);
        }
      }
      for (const link of links) {
        const [target, anchor] = link.split('#') as [string, string | undefined];
        const res = await request(env.app).get(target);
        expect(res.status, link).toBe(200);
        if (anchor) expect(res.text, link).toContain(`id="${anchor}"`);
      }
    });
  });

  it("names only the contract's routes in the guides' code blocks", () => {
    const contract = JSON.parse(fs.readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8'));
    const routes = Object.keys(contract.paths).map((p) => new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`));
    const named: string[] = [];
    for (const { source } of PAGES) {
      const markdown = fs.readFileSync(new URL(`../docs/${source}`, import.meta.url), 'utf8');
      for (const [, code] of markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
        // A URL under /v1 (curl, a configuration), or a typed client's call: herald.POST('/posts', …).
        for (const [, path] of code!.matchAll(/\/v1(\/[^\s"'?`)\\]*)/g)) named.push(path!);
        for (const [, path] of code!.matchAll(/\.(?:GET|POST|PATCH|PUT|DELETE)\('(\/[^']*)'/g)) named.push(path!);
      }
    }
    expect(named.length).toBeGreaterThan(20);
    for (const path of named)
      expect(
        routes.some((r) => r.test(path)),
        path,
      ).toBe(true);
  });

  it('links from README.md, CONTRIBUTING.md and the guides only to files that exist, and to headings they have', () => {
    const root = new URL('../', import.meta.url);
    const headings = (file: URL) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/^#+ (.+)$/gm)].map(([, title]) =>
        title!
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, ''),
      );
    const sources = ['README.md', 'CONTRIBUTING.md', ...PAGES.map((p) => `docs/${p.source}`)];
    let checked = 0;
    for (const source of sources) {
      const from = new URL(source, root);
      for (const [, target] of fs.readFileSync(from, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|\/|#)/.test(target!)) continue;
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const linked = new URL(file, from);
        expect(fs.existsSync(linked), `${source}: ${target}`).toBe(true);
        if (anchor) expect(headings(linked), `${source}: ${target}`).toContain(anchor);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("names this instance in the served contract's servers", async () => {
    const res = await request(env.app).get('/v1/openapi.json');
    expect(res.body.servers).toEqual([{ url: `${publicUrl}/v1`, description: 'This Herald instance.' }]);
  });
});
