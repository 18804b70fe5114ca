// The main thread's long tasks while a page does something, from a Chromium trace: each task's wall time and its
// thread time (the CPU the renderer's main thread spent on it). On a loaded machine the wall time also counts the
// wait for a core; the thread time is the page's own work, the figure to compare with the 100 ms target.
import type { Browser, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

export interface LongTasks {
  /** Tasks of 50 ms or more of thread time. */
  count: number;
  longestWallMs: number;
  longestThreadMs: number;
  /** Thread time of the long tasks together. */
  totalThreadMs: number;
}

export async function longTasksDuring(browser: Browser, page: Page, work: () => Promise<void>): Promise<LongTasks> {
  await browser.startTracing(page, { categories: ['toplevel', 'disabled-by-default-devtools.timeline'] });
  let trace: Buffer | undefined;
  try {
    await work();
    // Two frames more, so the last render's task has ended.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  } finally {
    trace = await browser.stopTracing();
  }
  const events = (JSON.parse(trace!.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events.filter(
    (e) =>
      e.ph === 'X' &&
      (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') &&
      main.has(`${e.pid}:${e.tid}`),
  );
  const ms = (us: number | undefined) => (us ?? 0) / 1000;
  const long = tasks.filter((t) => ms(t.tdur) >= 50);
  return {
    count: long.length,
    longestWallMs: Math.max(0, ...tasks.map((t) => ms(t.dur))),
    longestThreadMs: Math.max(0, ...tasks.map((t) => ms(t.tdur))),
    totalThreadMs: long.reduce((sum, t) => sum + ms(t.tdur), 0),
  };
}

export const longTasksText = (t: LongTasks) =>
  `${t.count} long tasks; longest ${t.longestThreadMs.toFixed(0)} ms of main-thread time ` +
  `(${t.longestWallMs.toFixed(0)} ms wall), ${t.totalThreadMs.toFixed(0)} ms in all`;
