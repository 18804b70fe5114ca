// {docs_url}: llms.txt and skill.md generated from the contract, the Redocly reference that works offline,
// the change log; and the served contract naming this instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { operations } from '../generated/operations.ts';
import { NETWORKS } from '../networks/index.ts';
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
  });

  it('serves the change log and an index', async () => {
    const log = await request(env.app).get('/docs/changelog.md');
    expect(log.status).toBe(200);
    expect(log.text).toMatch(/^# Herald change log/);
    const index = await request(env.app).get('/docs');
    expect(index.text).toContain('href="/docs/llms.txt"');
  });

  it("names this instance in the served contract's servers", async () => {
    const res = await request(env.app).get('/v1/openapi.json');
    expect(res.body.servers).toEqual([{ url: `${publicUrl}/v1`, description: 'This Herald instance.' }]);
  });
});
