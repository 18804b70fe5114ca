// Browser walks against a real Herald process: a fresh server (SQLite, sandbox networks) started from
// bin/herald, Debian's chromium through playwright-core, axe-core on every page, and a screenshot of
// each page under test-results/dashboard/.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterEach, expect } from 'vitest';
import { freePort } from '../support/freePort.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHOTS = path.join(root, 'test-results', 'dashboard');

export interface Herald {
  url: string;
  /** Its DATA_DIR, for `bin/herald` operator commands (say, `sandbox fail`) beside the running server. */
  dataDir: string;
  process: ChildProcess;
  /** What the server wrote so far (its JSON log lines: mail goes there without SMTP_URL). */
  output(): string;
  stop(): Promise<void>;
}

/** `bin/herald serve` on a free port and a fresh data directory; resolves once it listens. */
export async function startServer(env: Record<string, string> = {}): Promise<Herald> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-browser-'));
  const url = `http://localhost:${port}`;
  const child = spawn(path.join(root, 'bin/herald'), ['serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (d) => {
    log += d;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      log += d;
      if (log.includes('Herald is listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`herald serve exited with ${code}:\n${log}`)));
  });
  return {
    url,
    dataDir,
    process: child,
    output: () => log,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Debian's chromium for a walk. WALK_CPU_SLOWDOWN=3 runs every page's CPU three times slower (Chrome's CPU
 * throttling, as its DevTools offer it): a race that CI's load shows in one run of two then shows in a minute.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const slowdown = Number(process.env.WALK_CPU_SLOWDOWN ?? 1);
  if (slowdown > 1) {
    const newContext = browser.newContext.bind(browser);
    browser.newContext = async (options) => {
      const context = await newContext(options);
      context.on('page', (page) => {
        void context.newCDPSession(page).then((cdp) => cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown }));
      });
      return context;
    };
  }
  return browser;
}

/** Axe finds no serious or critical violation; then the page is saved as `<name>.png`. */
export async function checkPage(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

/** Axe's serious and critical violations on the page, a line each: rule, impact, help, the first nodes. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // axe.run in the page itself: the default mode opens a blank page for each check and loads axe twice, which
  // made the checks over half of a walk's time. The dashboard has no frames from other origins, all that mode adds.
  // Only the violations' nodes are gathered.
  const result = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
}

/**
 * After a failed test, prints what each open page shows (its address and text) and the server's last log lines
 * that were not plain successes: a walk that times out waiting for a sentence then says what was there instead.
 */
export function describeFailures(browser: () => Browser | undefined, herald: () => Herald | undefined): void {
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    const pages =
      browser()
        ?.contexts()
        .flatMap((context) => context.pages()) ?? [];
    const shown = await Promise.all(
      pages.map(async (page) => {
        // The text as the page shows it (hidden parts left out), line by line.
        const text = await page
          .locator('body')
          .allInnerTexts()
          .then((texts) => texts.join('\n'))
          .catch((err: Error) => `(unreadable: ${err.message})`);
        // What its fields hold, which the text leaves out: a form that lost what was typed shows here.
        const fields = await page
          .locator('input:visible, textarea:visible, select:visible')
          .evaluateAll((els) =>
            els.map((el) => {
              const field = el as HTMLInputElement;
              const name = field.labels?.[0]?.textContent?.trim() || field.name || field.type;
              const value = ['checkbox', 'radio'].includes(field.type) ? (field.checked ? 'on' : 'off') : field.value;
              return `${name.slice(0, 40)}=${value.slice(0, 40)}`;
            }),
          )
          .catch(() => []);
        return `--- ${page.url()}\n${text.slice(0, 2_000)}\nfields: ${fields.join(' | ')}`;
      }),
    );
    const lines = (herald()?.output() ?? '').split('\n').filter(Boolean);
    const notable = lines.filter((line) => !/"status":[23]\d\d,/.test(line)).slice(-30);
    // The last requests whatever their answer, in short: what the pages asked just before the failure.
    const requests = lines
      .flatMap((line) => {
        const m = /"method":"(\w+)","path":"([^"]*)","status":(\d+)/.exec(line);
        return m ? [`${m[1]} ${m[2]} ${m[3]}`] : [];
      })
      .slice(-40);
    console.error(`What the pages showed when "${task.name}" failed:\n${shown.join('\n')}`);
    console.error(`The server's last requests:\n${requests.join('\n')}`);
    console.error(`The server's last lines other than successes:\n${notable.join('\n')}`);
  });
}

/**
 * Opens a page from the main menu and waits for its heading. The dashboard navigates in a transition: the last page
 * stays on screen, and takes clicks, until the next page's script has loaded. A step taken right after the click
 * could land on the last page (a post's checkbox there is named like compose's account).
 */
export async function openFromMenu(page: Page, name: string): Promise<void> {
  // Not exact: a link may carry a count ("Approvals, 2 waiting").
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}
