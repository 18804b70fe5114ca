// The documentation site's pages, in navigation order: `make docs` renders them (scripts/buildDocs.ts) into
// docs/site/, which the server serves at /docs (mcp/docsRoutes.ts).
export const SITE_DIR = new URL('../docs/site/', import.meta.url);

/** Each page is served at /docs/<slug> (the index at /docs); `source` is under docs/. */
export const PAGES = [
  { slug: 'index', source: 'guides/index.md', nav: 'Overview' },
  { slug: 'quick-start', source: 'guides/quick-start.md', nav: 'Quick start' },
  { slug: 'authentication', source: 'guides/authentication.md', nav: 'Authentication and keys' },
  { slug: 'errors', source: 'guides/errors.md', nav: 'Errors and retries' },
  { slug: 'idempotency', source: 'guides/idempotency.md', nav: 'Idempotency' },
  { slug: 'webhooks', source: 'guides/webhooks.md', nav: 'Webhooks and events' },
  { slug: 'mcp', source: 'guides/mcp.md', nav: 'MCP setup' },
  { slug: 'publishing', source: 'guides/publishing.md', nav: 'Publishing guarantees' },
  { slug: 'workspaces', source: 'guides/workspaces.md', nav: 'Workspaces and roles' },
  { slug: 'connecting', source: 'guides/connecting.md', nav: 'Connecting networks' },
  { slug: 'self-hosting', source: 'guides/self-hosting.md', nav: 'Self-hosting' },
  { slug: 'configuration', source: 'guides/configuration.md', nav: 'Configuration' },
  { slug: 'operating', source: 'guides/operating.md', nav: 'Operating' },
  { slug: 'container', source: 'guides/container.md', nav: 'Container image' },
  { slug: 'networks-youtube', source: 'guides/networks/youtube.md', nav: 'YouTube' },
  { slug: 'networks-instagram', source: 'guides/networks/instagram.md', nav: 'Instagram' },
  { slug: 'networks-facebook', source: 'guides/networks/facebook.md', nav: 'Facebook Pages' },
  { slug: 'networks-threads', source: 'guides/networks/threads.md', nav: 'Threads' },
  { slug: 'networks-tiktok', source: 'guides/networks/tiktok.md', nav: 'TikTok' },
  { slug: 'changelog', source: 'CHANGELOG.md', nav: 'Change log' },
] as const;

export const pageHref = (slug: string) => (slug === 'index' ? '/docs' : `/docs/${slug}`);
