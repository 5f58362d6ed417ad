import type { ThemeConfig } from 'antd';
import { reduceMotion } from '../lib/reduce-motion';

/** A research-institute palette: deep field green, warm earth accents. */
export const theme: ThemeConfig = {
  token: {
    // "Reduce motion": dialogs, menus and drawers open and close at once instead of zooming and sliding.
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
