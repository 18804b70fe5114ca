// The dashboard's main flow in a real browser on a fresh server: sign up, connect sandbox Instagram and
// Threads through their consent pages, upload an image (progress to 100%), compose for both, read the
// plan, confirm, watch the posts go live, find them in the calendar, open one with its timeline, then
// see the row issues of an invalid post. Refusals, issues and the timeline must read as people's words (no code,
// field path, id or ISO time). Axe checks every page; screenshots go to test-results/dashboard.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, launchBrowser, SHOTS, startServer, type Herald } from './browser/walk.ts';

/** What the API says and people should not read: a code, a field path, an id, an ISO timestamp, an event kind. */
const API_WORDS = /[a-z]+_[a-z_]+|\b(med|pst|acc)_|\d{4}-\d\d-\d\dT|\w\.\w+\.\w|\b(retriedByWorker|publishing)\b/;

describe('dashboard in a browser', () => {
  let herald: Herald;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [herald, browser] = await Promise.all([startServer({ SANDBOX_PROCESSING_MS: '200' }), launchBrowser()]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId: 'Europe/Berlin' });
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.setDefaultTimeout(15_000);
  }, 60_000);
  afterAll(async () => {
    await page?.screenshot({ path: path.join(SHOTS, 'last.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
    await browser?.close();
    await herald?.stop();
  });

  const at = (p: string) => `${herald.url}/app${p}`;

  async function connect(network: string) {
    await page.goto(at('/accounts'));
    await page.getByRole('link', { name: `Connect ${network}` }).click();
    await expect.poll(() => page.url()).toContain('/sandbox/');
    // The simulator asks for the account's names, as the network's own pages would show them.
    for (const input of await page.locator('input[required], textarea[required]').all())
      await input.fill(`acme_${network.toLowerCase()}`);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText(/Connected \d+ accounts?/).waitFor();
  }

  /** Clicks the save button once the plan is checked (and, when given, after a look at the page). */
  async function saveWhenReady(name: string, look?: () => Promise<void>) {
    const button = page.getByRole('button', { name });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await look?.();
    await button.click();
  }

  it('walks from sign-up to live posts and back to a refused plan', async () => {
    await page.goto(at(''));
    await page.waitForURL(/\/app\/sign-up$/);
    await checkPage(page, '01-sign-up');
    await page.getByLabel('Name').fill('Mara Lindqvist');
    await page.getByLabel('Email').fill('mara@');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The server's refusal names `email`; the form says it with its own label.
    await page.getByRole('alert').getByText('Email must be an email address.', { exact: true }).waitFor();
    await checkPage(page, '01-sign-up-refused');
    await page.getByLabel('Email').fill('mara@example.com');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/calendar$/);
    await page.locator('.fc').waitFor();
    await checkPage(page, '02-calendar-empty');
    // A first visit (nothing cached) loads at most 300 KB of JavaScript, as sent (gzip).
    const fresh = await browser.newContext({ storageState: await page.context().storageState() });
    const visit = await fresh.newPage();
    const scripts: Promise<number>[] = [];
    visit.on('requestfinished', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.sizes().then((s) => s.responseBodySize));
    });
    await visit.goto(at('/calendar'));
    await visit.locator('.fc').waitFor();
    const jsBytes = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
    console.log(
      `first visit of /app/calendar: ${scripts.length} scripts, ${(jsBytes / 1024).toFixed(1)} KB of JavaScript sent`,
    );
    expect(jsBytes).toBeGreaterThan(0);
    expect(jsBytes).toBeLessThan(300 * 1024);
    await fresh.close();
    // Mara's account closed sign-up (SIGNUP unset): a stranger's sign-in page says how to get in instead.
    const stranger = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const door = await stranger.newPage();
    await door.goto(at('/sign-in'));
    await door.getByText("New here? Ask your workspace's owner for an invitation.").waitFor();
    await checkPage(door, '02-sign-in-invite-only');
    await stranger.close();

    // Keyboard: on a fresh load the first Tab reaches the skip link, which moves focus to the content.
    await page.goto(at('/calendar'));
    await page.locator('.fc').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    await connect('Instagram');
    await connect('Threads');
    await expect.poll(() => page.locator('.rows .row').count()).toBe(2);
    await checkPage(page, '03-accounts');

    await page.getByRole('link', { name: 'Media' }).click();
    const image = path.join(SHOTS, 'autumn.jpg');
    await sharp({ create: { width: 1080, height: 1080, channels: 3, background: '#d9822b' } })
      .jpeg()
      .toFile(image);
    await page.locator('input[type=file]').setInputFiles(image);
    const bar = page.getByRole('progressbar', { name: 'Upload of autumn.jpg' });
    await expect.poll(() => bar.getAttribute('value')).toBe('100');
    await page.locator('.media-card').getByText('ready').waitFor();
    await checkPage(page, '04-media');

    await page.getByRole('link', { name: 'Compose' }).click();
    await page.getByRole('checkbox', { name: /Instagram/ }).check();
    await page.getByRole('checkbox', { name: /Threads/ }).check();
    await page.getByRole('button', { name: 'Choose from library' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /autumn\.jpg/ })
      .click();
    await checkPage(page, '05-media-picker');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('Text', { exact: true }).fill('Autumn sale starts today 🍂');
    await page.getByText('Now', { exact: true }).click();
    const create = page.getByRole('button', { name: 'Publish 2 posts now' });
    await expect.poll(() => create.isEnabled()).toBe(true);
    await expect.poll(() => page.locator('.plan tbody tr.ok').count()).toBe(2);
    await checkPage(page, '06-compose-plan');
    await create.click();
    await page.getByRole('heading', { name: 'Done' }).waitFor();
    await checkPage(page, '07-created');

    await page.getByRole('link', { name: 'See the calendar' }).click();
    await expect.poll(() => page.locator('.fc-event.cal-live').count(), { timeout: 30_000 }).toBe(2);
    await checkPage(page, '08-calendar-live');
    await page.locator('.fc-event.cal-live').first().click();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.locator('.event-live').waitFor();
    // The timeline speaks people's words: no event kind, code, id or ISO timestamp on screen.
    await expect(page.locator('.timeline').textContent()).resolves.toMatch(
      /^Created\.[\s\S]*Published on (Instagram|Threads)/,
    );
    await expect(page.locator('.timeline').textContent()).resolves.not.toMatch(API_WORDS);
    await checkPage(page, '09-post-detail');

    await page.getByRole('link', { name: 'Posts' }).click();
    await expect.poll(() => page.locator('.rows .row').count()).toBe(2);
    await checkPage(page, '10-posts');

    await page.getByRole('link', { name: 'Compose' }).click();
    await page.getByRole('checkbox', { name: /Threads/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('#one #two ' + 'x'.repeat(520));
    await page.locator('.plan tbody tr.failing').waitFor();
    const issues = await page.locator('.plan .issues').textContent();
    expect(issues).toContain('Threads allows 500 characters (emoji count their bytes); this text has 530.');
    expect(issues).toContain('Threads takes one topic per post, and this one has 2: the Topic tag');
    expect(issues).not.toMatch(API_WORDS); // (the account's own name, acme_threads, is outside the issues)
    expect(await page.getByRole('button', { name: /^Schedule 1 post/ }).isDisabled()).toBe(true);
    await expect(page.locator('.counter.over').textContent()).resolves.toContain('Threads: 530 / 500');
    await checkPage(page, '11-compose-issues');

    // A draft is saved as it is: the plan's problems are warnings, and only scheduling waits for them.
    await page.getByText('Save as draft', { exact: true }).click();
    await page.getByText('Draft, no time').waitFor();
    await page.getByText('The draft is saved with these problems').waitFor();
    await saveWhenReady('Save 1 draft', () => checkPage(page, '11-draft-warnings'));
    await page.getByRole('heading', { name: 'Done' }).waitFor();
    await page.getByRole('link', { name: /^Open/ }).click();
    // Edit opens compose filled with the post; the fixed text is saved through the edit operation.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit post' }).waitFor();
    const text = page.getByLabel('Text', { exact: true });
    await expect.poll(() => text.inputValue()).toContain('#one #two');
    await text.fill('Autumn sale: the last days 🍂');
    await expect.poll(() => page.locator('.plan tbody tr.ok').count()).toBe(1);
    await checkPage(page, '11a-edit');
    await saveWhenReady('Save changes');
    await page.waitForURL(/\/app\/posts\/pst_/);
    await page.locator('.preview-text').getByText('Autumn sale: the last days 🍂').waitFor();
    await page.locator('.event-edited').waitFor();
    await checkPage(page, '11b-edited');
    // Duplicate fills a new post from it; the copy is then deleted, after a confirmation.
    await page.getByRole('link', { name: 'Duplicate' }).click();
    await page.getByRole('heading', { name: 'Duplicate post' }).waitFor();
    await expect.poll(() => text.inputValue()).toBe('Autumn sale: the last days 🍂');
    await page.getByText('Save as draft', { exact: true }).click();
    await saveWhenReady('Save 1 draft');
    await page.getByRole('heading', { name: 'Done' }).waitFor();
    await page.getByRole('link', { name: /^Open/ }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await checkPage(page, '11c-delete');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL(/\/app\/posts$/);
    await expect.poll(() => page.locator('.rows .row').count()).toBe(3);

    // Disconnecting says what happens to queued posts before it happens.
    await page.getByRole('link', { name: 'Accounts' }).click();
    await page.getByRole('button', { name: 'Disconnect' }).last().click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('It has no queued posts.').waitFor();
    await checkPage(page, '12-disconnect');
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => page.locator('.rows .row').count()).toBe(1);

    // A passing network fault: the timeline says Herald tries again, when, in the zone and in words.
    const ids = await page.evaluate(async () => {
      const [{ accounts }, { media }] = await Promise.all(
        ['accounts', 'media'].map((r) => fetch(`/v1/${r}`).then((a) => a.json())),
      );
      return { accountId: accounts[0].id as string, mediaId: media[0].id as string };
    });
    const bin = path.join(import.meta.dirname, '../bin/herald');
    const failOnce = ['sandbox', 'fail', '--account', ids.accountId, '--scenario', 'unavailable'];
    execFileSync(bin, failOnce, { env: { ...process.env, DATA_DIR: herald.dataDir, DATABASE_URL: '' } });
    const postId = await page.evaluate(async ({ accountId, mediaId }) => {
      const { csrfToken } = await fetch('/auth/session').then((r) => r.json());
      const body = {
        targets: { accountIds: [accountId] },
        mediaIds: [mediaId],
        text: 'Retry me',
        when: 'now',
        confirm: true,
      };
      const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken };
      const created = await fetch('/v1/posts', { method: 'POST', headers, body: JSON.stringify(body) });
      return (await created.json()).posts[0].id as string;
    }, ids);
    await page.goto(at(`/posts/${postId}`));
    await page.locator('.event-retriedByWorker').waitFor();
    const retry = await page.locator('.event-retriedByWorker').textContent();
    expect(retry).toMatch(
      /^Instagram had a passing problem; Herald tries again by itself (today|tomorrow) at \d\d:\d\d CET\./,
    );
    expect(retry).not.toMatch(API_WORDS);
    await checkPage(page, '12-post-retrying');

    // The side bar shows every destination on a desktop: no menu to open there.
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.isVisible()).toBe(false);
    await page.setViewportSize({ width: 390, height: 844 });
    await checkPage(page, '13-phone-accounts');
    // The phone's Menu holds every destination, each whole on the screen; choosing one closes it.
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Compose', 'Calendar', 'Posts', 'Media', 'Accounts', 'Settings']) {
      const box = (await nav.getByRole('link', { name }).boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 390, name).toBe(true);
    }
    await checkPage(page, '13-phone-menu');
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    await nav.getByRole('link', { name: 'Calendar' }).click();
    await page.locator('.fc').waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);
    await checkPage(page, '14-phone-calendar');

    // TikTok: its required choices in compose, with none made for the person, and its declaration.
    await page.setViewportSize({ width: 1280, height: 860 });
    await connect('TikTok');
    await page.getByRole('link', { name: 'Compose' }).click();
    await page.getByRole('checkbox', { name: /TikTok/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Autumn looks');
    const audience = page.getByLabel('Who can see it');
    expect(await audience.inputValue()).toBe('');
    await page.locator('.plan tbody tr.failing').waitFor();
    await page.locator('.plan .issues').getByText('Choose who can see this TikTok post.').waitFor();
    await audience.selectOption({ label: 'Only me' });
    await page.getByLabel('Promotes your own business (labelled “Promotional content”)').check();
    await page.getByText('By posting, you agree to TikTok’s Music Usage Confirmation.').waitFor();
    await expect.poll(() => page.locator('.plan .issues').textContent()).not.toContain('Choose who can see');
    await checkPage(page, '15-compose-tiktok');
  }, 180_000);
});
