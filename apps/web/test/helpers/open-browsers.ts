import type { BrowserContext } from 'playwright-core';

/**
 * The browsers open now (browser.ts adds and removes them), for the report of a failed test (failure-report.ts). A
 * module of its own so the report, loaded before every test file, does not load Playwright for the files that
 * drive no browser.
 */
export const openContexts = new Set<BrowserContext>();
