import { afterEach } from 'vitest';
import { openContexts } from './open-browsers';

/**
 * After a failed browser test, prints what a person looking at the screen would have seen: the page, its language,
 * the messages and notifications showing, and the titles of open dialogs and drawers. CI keeps no screenshots, and
 * "the toast never showed" says little without knowing what showed instead.
 */
afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  for (const browser of openContexts) {
    for (const page of browser.pages()) {
      const seen = await page
        .evaluate(() => {
          const visible = (el: Element) => (el as HTMLElement).offsetParent !== null || el.getClientRects().length > 0;
          const texts = (selector: string) =>
            [...document.querySelectorAll(selector)]
              .filter(visible)
              .map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200));
          return {
            lang: document.documentElement.lang,
            section: document.querySelector('[data-section]')?.getAttribute('data-section') ?? null,
            messages: texts('.ant-message-notice, .ant-notification-notice'),
            dialogs: texts('.ant-modal-wrap .ant-modal-title, .ant-modal-confirm-title'),
            drawers: texts('.ant-drawer-open .ant-drawer-title'),
          };
        })
        .catch((err: Error) => ({ unreadable: err.message.split('\n')[0] }));
      console.log(
        `After the failed test "${context.task.name}": ${page.url()} ${JSON.stringify({ ...seen, viewport: page.viewportSize() })}`,
      );
    }
  }
});
