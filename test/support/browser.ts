import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/**
 * Headless Chromium (Debian's `chromium`, driven by playwright-core) for the page tests. CI must
 * have it (ENGRAM_REQUIRE_CHROMIUM): a missing browser fails the run there instead of skipping.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
const chromiumRequired = process.env.CI === 'true' || process.env.ENGRAM_REQUIRE_CHROMIUM === '1';
if (!haveChromium && chromiumRequired) {
  throw new Error(`Chromium is required for this run (CI / ENGRAM_REQUIRE_CHROMIUM) but ${CHROMIUM} is missing: apt-get install chromium`);
}

/** Screenshots kept as test artifacts (reports/ is not committed). */
export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'reports', 'screenshots');

export function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A browser context that refuses, and records in `outside`, every request not to `host`. */
export async function offlineContext(browser: Browser, host: string, outside: string[]): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === host) return route.continue();
    outside.push(url.href);
    return route.abort('internetdisconnected');
  });
  return context;
}
