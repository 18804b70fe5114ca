// `make docs`: the guides (docs/guides/*.md) and the change log rendered to static pages in docs/site/, served at
// $PUBLIC_URL/docs with one stylesheet and nothing loaded from elsewhere, so the site works offline. Not committed
// (an output of the Markdown); `{PUBLIC_URL}` in a guide is filled in when served, as in llms.txt.
import fs from 'node:fs';
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../domain/html.ts';
import { PAGES, pageHref, SITE_DIR } from './docsPages.ts';

const DOCS = new URL('../docs/', import.meta.url);
const GUIDES_DIR = new URL('guides/', DOCS);

/** What the server serves beside the pages, linked from every page's navigation. */
const REFERENCE_LINKS = [
  ['/docs/reference', 'API reference'],
  ['/v1/openapi.json', 'openapi.json'],
  ['/docs/llms.txt', 'llms.txt'],
  ['/docs/skill.md', 'skill.md (for agents)'],
] as const;

/**
 * A link between guides is written `webhooks.md#verifying` or `networks/tiktok.md` (so it works on a forge too) and
 * served as /docs/… (a network's guide as /docs/networks-<network>).
 */
function siteHref(href: string): string {
  const match = /^(?:\.\.?\/)*(networks\/)?([a-z-]+|CHANGELOG)\.md(#.*)?$/.exec(href);
  const name = match?.[2] === 'CHANGELOG' ? 'changelog' : match?.[2];
  const slug = match?.[1] ? `networks-${name}` : name;
  return slug && PAGES.some((p) => p.slug === slug) ? pageHref(slug) + (match![3] ?? '') : href;
}

const anchorOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/&[a-z]+;|&#\d+;/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function renderer() {
  return new Marked({
    gfm: true,
    walkTokens(token) {
      if (token.type === 'link') (token as Tokens.Link).href = siteHref((token as Tokens.Link).href);
    },
    renderer: {
      // A network's official page keeps its link; a file of the repository (a network's FACTS.md) has no page
      // here, so it stays as its words.
      link({ href, tokens }) {
        return /^(\/|#|https:\/\/)/.test(href) ? false : this.parser.parseInline(tokens);
      },
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        return `<h${depth} id="${anchorOf(inner)}">${inner}</h${depth}>\n`;
      },
    },
  });
}

function page(slug: string, title: string, body: string, version: string): string {
  const nav = PAGES.map((p) => {
    const current = p.slug === slug ? ' aria-current="page"' : '';
    return `<li><a href="${pageHref(p.slug)}"${current}>${escapeHtml(p.nav)}</a></li>`;
  }).join('');
  const reference = REFERENCE_LINKS.map(([href, label]) => `<li><a href="${href}">${escapeHtml(label)}</a></li>`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Herald docs</title>
<link rel="stylesheet" href="/docs/style.css">
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header><a class="brand" href="/docs">Herald docs</a> <span class="version">API ${escapeHtml(version)}</span>
<a class="to-contents" href="#contents">Contents</a></header>
<div class="layout">
<nav id="contents" aria-label="Documentation">
<h2>Guides</h2>
<ul>${nav}</ul>
<h2>Reference</h2>
<ul>${reference.join('')}</ul>
</nav>
<main id="main">
${body}</main>
</div>
</body>
</html>
`;
}

export function buildSite(): string[] {
  const version = JSON.parse(fs.readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')).info
    .version as string;
  const marked = renderer();
  fs.rmSync(SITE_DIR, { recursive: true, force: true });
  fs.mkdirSync(SITE_DIR, { recursive: true });
  fs.copyFileSync(new URL('style.css', GUIDES_DIR), new URL('style.css', SITE_DIR));
  const written = ['style.css'];
  for (const { slug, source } of PAGES) {
    const markdown = fs.readFileSync(new URL(source, DOCS), 'utf8');
    const title = /^# (.+)$/m.exec(markdown)?.[1] ?? 'Herald';
    const html = page(slug, title.replace(/`/g, ''), marked.parse(markdown, { async: false }), version);
    fs.writeFileSync(new URL(`${slug}.html`, SITE_DIR), html);
    written.push(`${slug}.html`);
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const written = buildSite();
  console.log(`docs/site/: ${written.length} files from docs/guides and docs/CHANGELOG.md`);
}
