// The web benches' browser: Debian's Chromium through playwright-core, and frame pacing (how many 60 Hz
// frames were dropped while idle and while a list scrolls).
import { createRequire } from 'node:module';
import path from 'node:path';
import { figure } from './_server.mjs';

const requireWeb = createRequire(
  path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../apps/web/package.json'),
);

/** A headless Chromium with its own profile in `userDir`, 1440 x 900; resolves with the context and its page. */
export async function launchBenchBrowser(userDir) {
  const { chromium } = requireWeb('playwright-core');
  const context = await chromium.launchPersistentContext(userDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

const SCROLL_STEP_PX = 40; // per frame: about 2 400 px/s at 60 fps, brisk wheel scrolling

/** Idle baseline (2 s), then `durationMs` of scrolling `scrollerSelector`; prints both figures. */
export async function measureScrollFrames(bench, page, { scrollerSelector, cardSelector, durationMs }) {
  const idle = await page.evaluate(async (ms) => {
    const frames = [];
    await new Promise((resolve) => {
      const step = (now) => {
        frames.push(now);
        if (now - frames[0] < ms) requestAnimationFrame(step);
        else resolve();
      };
      requestAnimationFrame(step);
    });
    return frames;
  }, 2000);
  const idleStats = frameStats(idle);
  figure(bench, 'idle_frames_dropped_pct', (idleStats.dropped / Math.max(1, idleStats.expected)) * 100, '%', {
    note: 'baseline, nothing scrolling',
  });

  const scroll = await page.evaluate(
    async ({ ms, scrollerSelector, cardSelector, stepPx }) => {
      const scroller = document.querySelector(scrollerSelector);
      if (!scroller) throw new Error(`no scroller ${scrollerSelector}`);
      const frames = [];
      const startAt = performance.now();
      await new Promise((resolve) => {
        const step = (now) => {
          frames.push(now);
          scroller.scrollTop += stepPx;
          if (now - startAt < ms) requestAnimationFrame(step);
          else resolve();
        };
        requestAnimationFrame(step);
      });
      return { frames, scrolled: scroller.scrollTop, cards: document.querySelectorAll(cardSelector).length };
    },
    { ms: durationMs, scrollerSelector, cardSelector, stepPx: SCROLL_STEP_PX },
  );
  const scrollStats = frameStats(scroll.frames);
  figure(bench, 'scroll_frames_dropped_pct', (scrollStats.dropped / Math.max(1, scrollStats.expected)) * 100, '%', {
    dropped: scrollStats.dropped,
    expected: scrollStats.expected,
    scrolled_px: Math.round(scroll.scrolled),
    cards_in_dom: scroll.cards,
  });
}

function frameStats(frames) {
  const interval = 1000 / 60;
  let dropped = 0;
  for (let i = 1; i < frames.length; i++)
    dropped += Math.max(0, Math.round((frames[i] - frames[i - 1]) / interval) - 1);
  return { dropped, expected: Math.round((frames[frames.length - 1] - frames[0]) / interval) };
}
