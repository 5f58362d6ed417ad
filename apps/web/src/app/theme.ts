import type { ThemeConfig } from 'antd';

/** A research-institute palette: deep field green, warm earth accents. */
export const theme: ThemeConfig = {
  token: {
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
