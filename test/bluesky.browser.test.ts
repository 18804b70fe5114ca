// Bluesky in the dashboard, in a real browser, against Bluesky's reference PDS (test/support/blueskyPds.ts) named by
// SANDBOX_PDS: the owner signs up, connects a Bluesky account with its handle and an app password on the form the
// Connect tile leads to (the account's own password is refused there, in people's words), composes a post with an
// image and its alt text, publishes it, and the record the PDS holds has the text, the facets and the alt text.
// Axe checks every page; screenshots go to test-results/dashboard.
import path from 'node:path';
import { AtpAgent } from '@atproto/api';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPage,
  describeFailures,
  launchBrowser,
  openFromMenu,
  SHOTS,
  startServer,
  type Herald,
} from './browser/walk.ts';
import { installPds, startPds, type RunningPds } from './support/blueskyPds.ts';

describe('bluesky in the dashboard', () => {
  let pds: RunningPds;
  let herald: Herald;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    pds = await startPds(await installPds());
    [herald, browser] = await Promise.all([startServer({ SANDBOX_PDS: pds.url }), launchBrowser()]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId: 'Europe/Berlin' });
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.setDefaultTimeout(15_000);
  }, 20 * 60_000);
  afterAll(async () => {
    expect(pageErrors).toEqual([]);
    await browser?.close();
    await herald?.stop();
    await pds?.close();
  });
  describeFailures(
    () => browser,
    () => herald,
  );

  const at = (p: string) => `${herald.url}/app${p}`;

  it('connects with an app password and publishes a post with an image and its alt text', async () => {
    // A person's Bluesky account, with an app password made for Herald (as in Bluesky's settings).
    const owner = new AtpAgent({ service: pds.url });
    await owner.createAccount({ handle: 'acmeshop.test', email: 'shop@example.com', password: 'main-password-1' });
    const { data: app } = await owner.com.atproto.server.createAppPassword({ name: 'herald' });

    await page.goto(at(''));
    await page.waitForURL(/\/app\/sign-up$/);
    await page.getByLabel('Name').fill('Mara Lindqvist');
    await page.getByLabel('Email').fill('mara@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/calendar$/);

    await page.goto(at('/accounts'));
    await page.getByRole('link', { name: 'Connect Bluesky' }).click();
    const form = page.getByRole('form', { name: 'Connect a Bluesky account' });
    await form.waitFor();
    expect(await page.getByLabel('Server').inputValue()).toBe(pds.url);
    await page.getByLabel('Handle or email').fill('acmeshop.test');
    await page.getByLabel('App password').fill('main-password-1');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('This is the account’s own password; Herald connects with an app password.').waitFor();
    await checkPage(page, '40-bluesky-connect-refused');
    await page.getByLabel('App password').fill(app.password);
    await checkPage(page, '41-bluesky-connect');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByText('Connected 1 account').waitFor();
    await page.locator('.rows .row .row-title').getByText('acmeshop.test', { exact: true }).waitFor();
    await checkPage(page, '42-bluesky-connected');

    await page.getByRole('link', { name: 'Media' }).click();
    const image = path.join(SHOTS, 'coat.jpg');
    await sharp({ create: { width: 1080, height: 1350, channels: 3, background: '#b03a2e' } })
      .jpeg()
      .toFile(image);
    await page.locator('input[type=file]').setInputFiles(image);
    await page.locator('.media-card').getByText('ready').waitFor();

    await openFromMenu(page, 'Compose');
    await page.getByRole('checkbox', { name: /Bluesky/ }).check();
    await page.getByRole('button', { name: 'Choose from library' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /coat\.jpg/ })
      .click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('Text', { exact: true }).fill('New coats are in, @acmeshop.test #autumn 🧥');
    await page.getByLabel('Alt text of coat.jpg').fill('A red wool coat on a hanger.');
    await page.getByText('Now', { exact: true }).click();
    await expect.poll(() => page.locator('.plan tbody tr.ok').count()).toBe(1);
    await page
      .locator('.counter')
      .getByText(/Bluesky: 42 \/ 300/)
      .waitFor();
    await page.getByText('Bluesky has no preview here yet', { exact: false }).waitFor();
    await checkPage(page, '43-bluesky-compose');
    const publish = page.getByRole('button', { name: 'Publish 1 post now' });
    await expect.poll(() => publish.isEnabled()).toBe(true);
    await publish.click();
    await page.getByRole('heading', { name: 'Done' }).waitFor();

    await page.getByRole('link', { name: 'Posts' }).click();
    const row = page.locator('.post-row .post-link').filter({ hasText: 'Published' });
    // The worker publishes to the real PDS (an image to resize and upload): slow on a busy machine.
    await expect.poll(() => row.count(), { timeout: 60_000 }).toBe(1);
    await checkPage(page, '44-bluesky-live');

    const { data } = await owner.com.atproto.repo.listRecords({
      repo: owner.session!.did,
      collection: 'app.bsky.feed.post',
    });
    expect(data.records).toHaveLength(1);
    const value = data.records[0]!.value as any;
    expect(value.text).toBe('New coats are in, @acmeshop.test #autumn 🧥');
    expect(value.facets.flatMap((f: any) => f.features.map((x: any) => x.$type))).toEqual([
      'app.bsky.richtext.facet#mention',
      'app.bsky.richtext.facet#tag',
    ]);
    expect(value.embed.images).toEqual([
      expect.objectContaining({ alt: 'A red wool coat on a hanger.', aspectRatio: { width: 1080, height: 1350 } }),
    ]);
  }, 120_000);
});
