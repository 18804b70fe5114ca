// What a page load costs on the wire: every response that finished while the page did something, by the bytes
// the browser received for it (headers and the body as sent, compressed where it was), from Chromium's own count.
import type { Page } from 'playwright-core';

export interface Load {
  responses: number;
  bytes: number;
  /** The largest responses, as "path: KB", for a look at where the bytes go. */
  largest: string[];
}

export async function loadDuring(page: Page, work: () => Promise<void>): Promise<Load> {
  const cdp = await page.context().newCDPSession(page);
  const urls = new Map<string, string>();
  const sizes: { path: string; bytes: number }[] = [];
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, new URL(e.request.url).pathname));
  cdp.on('Network.loadingFinished', (e) =>
    sizes.push({ path: urls.get(e.requestId) ?? '?', bytes: e.encodedDataLength }),
  );
  await cdp.send('Network.enable');
  try {
    await work();
  } finally {
    await cdp.detach();
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return {
    responses: sizes.length,
    bytes: sizes.reduce((sum, s) => sum + s.bytes, 0),
    largest: sizes
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5)
      .map((s) => `${s.path.replace(/^\/app\/assets\//, '')}: ${kb(s.bytes)}`),
  };
}

export const loadText = (load: Load) =>
  `${(load.bytes / 1024).toFixed(1)} KB over ${load.responses} responses (largest: ${load.largest.join(', ')})`;
