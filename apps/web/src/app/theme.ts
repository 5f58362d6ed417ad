import type { ThemeConfig } from 'antd';

/**
 * The system's "reduce motion" setting (WCAG 2.3.3, read once at start): dialogs, menus and drawers then open and
 * close at once instead of zooming and sliding.
 */
const reduceMotion =
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/** A research-institute palette: deep field green, warm earth accents. */
export const theme: ThemeConfig = {
  token: {
    motion: !reduceMotion,
    colorPrimary: '#2f7d3b',
    colorInfo: '#2f7d3b',
    colorLink: '#2f7d3b',
    borderRadius: 8,
    fontFamily:
      "'Inter', 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', system-ui, sans-serif",
  },
  components: {
    Menu: { itemBg: 'transparent', horizontalItemSelectedColor: '#2f7d3b' },
  },
};
