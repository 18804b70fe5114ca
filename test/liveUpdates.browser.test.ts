// Live updates in a real browser: an open calendar shows new posts and their going live without a reload, with a
// fetch of the calendar for new posts (throttled) and none for a change of state (the event stream carries it),
// makes no request while the tab is hidden, and fetches once when it is shown again. The requests the tab makes
// are counted and printed: the idle-tab figure. The page compose shows after "Publish now" follows its posts to live,
// and takes focus on its heading.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailures, launchBrowser, SHOTS, startServer, type Herald } from './browser/walk.ts';

describe('live updates in a browser', () => {
  let herald: Herald;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  /** Every request the tab sent, by path. */
  const sent: string[] = [];

  beforeAll(async () => {
    [herald, browser] = await Promise.all([startServer(), launchBrowser()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId: 'UTC' });
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('request', (r) => {
      if (r.url().startsWith(herald.url) && r.resourceType() !== 'document') sent.push(new URL(r.url()).pathname);
    });
    page.setDefaultTimeout(15_000);
  }, 60_000);
  afterAll(async () => {
    await page?.screenshot({ path: path.join(SHOTS, 'live-last.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
    await browser?.close();
    await herald?.stop();
  });
  describeFailures(
    () => browser,
    () => herald,
  );

  const at = (p: string) => `${herald.url}/app${p}`;
  // The list view shows every post of the month (a month cell shows its first few).
  const live = () => page.locator('.cal-post.cal-live').count();
  /** Requests sent by the tab while `work` runs, leaving out the asset and page loads. */
  async function counted(work: () => Promise<void>): Promise<string[]> {
    const from = sent.length;
    await work();
    return sent.slice(from).filter((p) => !p.startsWith('/app/'));
  }
  /** Posts made by another client of the same person (not the tab): one Threads post per call. */
  async function schedule(csrf: string, accountId: string, when: unknown, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await context.request.post(`${herald.url}/v1/posts`, {
        headers: { 'X-CSRF-Token': csrf },
        data: { targets: { accountIds: [accountId] }, mediaIds: [], text: `Live ${i}`, when, confirm: true },
      });
      expect(res.status(), await res.text()).toBe(201);
      ids.push((await res.json()).posts[0].id);
    }
    return ids;
  }
  const statusOf = async (id: string) =>
    (await (await context.request.get(`${herald.url}/v1/posts/${id}`)).json()).status;
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate((s) => {
      Object.defineProperty(document, 'visibilityState', { value: s, configurable: true });
      Object.defineProperty(document, 'hidden', { value: s === 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);

  it('shows posts going live on an open calendar, asks nothing while hidden, one round when shown', async () => {
    await page.goto(at(''));
    await page.waitForURL(/\/app\/sign-up$/);
    await page.getByLabel('Name').fill('Ines Okafor');
    await page.getByLabel('Email').fill('ines@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/calendar$/);
    await page.goto(at('/accounts'));
    await page.getByRole('link', { name: 'Connect Threads' }).click();
    await expect.poll(() => page.url()).toContain('/sandbox/');
    for (const input of await page.locator('input[required], textarea[required]').all()) await input.fill('acme');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText(/Connected \d+ accounts?/).waitFor();
    const session = await (await context.request.get(`${herald.url}/auth/session`)).json();
    const accounts = await (await context.request.get(`${herald.url}/v1/accounts`)).json();
    const accountId: string = accounts.accounts[0].id;

    // The calendar open, another client makes five posts due now: they appear and go live without a reload.
    await page.goto(at('/calendar?view=list'));
    await page.locator('.calendar-card').waitFor();
    const started = Date.now();
    const whileLive = await counted(async () => {
      await schedule(session.csrfToken, accountId, 'now', 5);
      await expect.poll(live, { timeout: 60_000 }).toBe(5);
    });
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `calendar open ${seconds.toFixed(0)} s while 5 posts were made and went live: ${whileLive.length} ` +
        `requests (${whileLive.join(', ')})`,
    );
    // New posts fetch the calendar again (at once, then at most once per 30 s); their way to live is patched in
    // from the events' own state, with no request at all.
    expect(whileLive.every((p) => p === '/v1/posts')).toBe(true);
    expect(whileLive.length).toBeLessThanOrEqual(2);

    // Hidden: the stream closes and nothing is asked while another post goes live.
    const whileHidden = await counted(async () => {
      await setVisibility('hidden');
      const [late] = await schedule(session.csrfToken, accountId, 'now', 1);
      await expect.poll(() => statusOf(late!), { timeout: 30_000 }).toBe('live');
    });
    expect(whileHidden).toEqual([]);
    // Shown again: the stream opens and the page's queries are fetched once, the new post among them.
    const whenShown = await counted(async () => {
      await setVisibility('visible');
      await expect.poll(live, { timeout: 30_000 }).toBe(6);
    });
    console.log(`tab shown again: ${whenShown.length} requests (${whenShown.join(', ')})`);
    expect(whenShown.filter((p) => p === '/auth/events')).toHaveLength(1);
    expect(whenShown.filter((p) => p === '/v1/posts')).toHaveLength(1);
    expect(whenShown.length).toBeLessThan(8);
  }, 180_000);

  it('keeps the page compose shows after "Publish now" current, with focus on its heading', async () => {
    await page.goto(at('/compose'));
    await page.getByRole('checkbox', { name: /Threads/ }).check();
    await page.getByLabel('Text', { exact: true }).fill('Doors open at nine.');
    await page.getByText('Now', { exact: true }).click();
    const button = page.getByRole('button', { name: 'Publish 1 post now' });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    const heading = page.getByRole('heading', { name: 'Done' });
    await heading.waitFor();
    // Keyboard and screen reader users land on the result, which names what was made.
    expect(await heading.evaluate((h) => h === document.activeElement)).toBe(true);
    expect(await heading.textContent()).toBe('Done: 1 post');
    await page.screenshot({ path: path.join(SHOTS, 'live-compose-done.png'), fullPage: true });
    // The post goes live in the worker; the row says so without a reload.
    await page
      .locator('.rows .row')
      .getByText(/^Published · Threads/)
      .waitFor({ timeout: 60_000 });
    await page.screenshot({ path: path.join(SHOTS, 'live-compose-live.png'), fullPage: true });
  }, 120_000);
});
