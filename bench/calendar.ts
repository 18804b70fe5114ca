// bench/calendar: the main thread's long tasks while the dashboard shows a month of 300 posts over six accounts (the
// seed of the browser walk, test/browser/busyMonth.ts), in Debian's chromium: opening the calendar on that month
// (start-up included, on a first visit and again), the start-up alone on another page, moving away and back, and
// the month as a list. The target: no long task over 100 ms. Run after `make dashboard`; BENCH_RUNS
// (default 3) fresh browser contexts.
import path from 'node:path';
import { DateTime } from 'luxon';
import sharp from 'sharp';
import { seedBusyMonth } from '../test/browser/busyMonth.ts';
import { longTasksDuring, longTasksText } from '../test/browser/longTasks.ts';
import { launchBrowser, SHOTS, startServer } from '../test/browser/walk.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ZONE = 'Europe/Berlin';

const [herald, browser] = await Promise.all([startServer(), launchBrowser()]);
try {
  const setup = await browser.newContext({ timezoneId: ZONE });
  const page = await setup.newPage();
  const at = (p: string) => `${herald.url}/app${p}`;
  await page.goto(at('/sign-up'));
  await page.getByLabel('Name').fill('Bench Person');
  await page.getByLabel('Email').fill('bench@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/app\/calendar$/);
  // One picture for the cards' thumbnails, uploaded as a person would.
  const image = path.join(SHOTS, 'bench-calendar.jpg');
  await sharp({ create: { width: 1080, height: 1080, channels: 3, background: '#2b7fd9' } })
    .jpeg()
    .toFile(image);
  await page.goto(at('/media'));
  await page.locator('input[type=file]').setInputFiles(image);
  await page.locator('.media-card').getByText('ready').waitFor({ timeout: 30_000 });
  const { workspace, mediaId } = await page.evaluate(async () => {
    const who = await fetch('/v1/whoami').then((r) => r.json());
    const { media } = await fetch('/v1/media').then((r) => r.json());
    return { workspace: who.workspace.id as string, mediaId: media[0].id as string };
  });
  const month = DateTime.now().setZone(ZONE).plus({ months: 1 }).startOf('month');
  const now = month.set({ day: 15, hour: 12 });
  const seeded = await seedBusyMonth(herald.dataDir, workspace, month, now, mediaId);
  const storageState = await setup.storageState();
  await setup.close();
  console.log(
    `seeded ${seeded.posts} posts over ${seeded.accountIds.length} accounts in ${month.toFormat('LLLL yyyy')}`,
  );

  for (let run = 1; run <= RUNS; run++) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      timezoneId: ZONE,
      storageState,
    });
    await context.clock.setFixedTime(now.toJSDate());
    const cal = await context.newPage();
    /** The month's count is said and its cards are drawn. */
    const shown = async () => {
      await cal
        .getByRole('status')
        .filter({ hasText: /^\d+ posts in these dates\.$/ })
        .waitFor();
      await cal.locator('.calendar-card[aria-busy="false"]').waitFor();
    };
    const measured = async (label: string, work: () => Promise<void>) =>
      console.log(`run ${run}, ${label}: ${longTasksText(await longTasksDuring(browser, cal, work))}`);
    // First visit: nothing of the dashboard's scripts compiled or cached yet.
    await measured('opening the month on a first visit (start-up included)', async () => {
      await cal.goto(at(`/calendar?date=${month.toISODate()}`));
      await shown();
    });
    // The dashboard's own start-up, on a page without the calendar, for comparison.
    await measured('opening the accounts page (start-up alone)', async () => {
      await cal.goto(at('/accounts'));
      await cal.getByRole('heading', { name: 'Connected accounts' }).waitFor();
    });
    await measured('opening the month again (start-up included)', async () => {
      await cal.goto(at(`/calendar?date=${month.toISODate()}`));
      await shown();
    });
    await measured('away and back to the month', async () => {
      await cal.getByRole('button', { name: 'Next' }).click();
      await cal.getByRole('button', { name: 'Previous' }).click();
      await shown();
    });
    await measured('the month as a list', async () => {
      await cal.getByRole('button', { name: 'List' }).click();
      await cal.locator('.cal-agenda').waitFor();
      await shown();
    });
    await context.close();
  }
} finally {
  await browser.close();
  await herald.stop();
}
