import {
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  DeploymentUnitOutlined,
  ExperimentOutlined,
  FolderOutlined,
  HomeOutlined,
  MenuOutlined,
  PictureOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Drawer, Grid, Menu } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageMenu } from './language-menu';
import { useCurrentSection, useNavigateSection } from '../lib/section-context';
import { SECTIONS, type Section } from '../lib/sections';
import { BrandMark } from './brand-mark';
import { UserMenu } from './user-menu';

const ICONS: Record<Section, ReactNode> = {
  home: <HomeOutlined />,
  images: <PictureOutlined />,
  folders: <FolderOutlined />,
  prediction: <ExperimentOutlined />,
  tasks: <UnorderedListOutlined />,
  results: <BarChartOutlined />,
  models: <DeploymentUnitOutlined />,
  samples: <AppstoreOutlined />,
  connection: <ApiOutlined />,
};

/** Top navigation bar; below the `lg` breakpoint the menu collapses into a toggle that opens a drawer. */
export function AppHeader() {
  const { t } = useTranslation();
  const section = useCurrentSection();
  const navigate = useNavigateSection();
  const screens = Grid.useBreakpoint();
  const narrow = !screens.lg;
  const [open, setOpen] = useState(false);
  const items = SECTIONS.map((s) => ({ key: s, icon: ICONS[s], label: <span data-nav={s}>{t(`nav.${s}`)}</span> }));

  return (
    <header className="app-header">
      <button type="button" className="app-brand" onClick={() => navigate('home')}>
        <BrandMark />
        <span className="app-brand-text">
          <strong>{t('app_name')}</strong>
          <small>{t('institute')}</small>
        </span>
      </button>
      {narrow ? null : (
        <Menu
          className="app-nav"
          mode="horizontal"
          selectedKeys={[section]}
          items={items}
          onClick={({ key }) => navigate(key)}
          data-testid="main-nav"
        />
      )}
      <div className="app-header-tools">
        <LanguageMenu />
        <UserMenu />
        {narrow ? (
          <Button
            type="text"
            icon={<MenuOutlined />}
            aria-label={t('menu')}
            aria-expanded={open}
            data-testid="nav-toggle"
            onClick={() => setOpen(true)}
          />
        ) : null}
      </div>
      <Drawer
        open={narrow && open}
        onClose={() => setOpen(false)}
        placement="right"
        size={260}
        title={t('app_name')}
        styles={{ body: { padding: 0 } }}
      >
        <Menu
          mode="inline"
          selectedKeys={[section]}
          items={items}
          data-testid="drawer-nav"
          onClick={({ key }) => {
            setOpen(false);
            navigate(key);
          }}
        />
      </Drawer>
    </header>
  );
}

/** The bar above the sign-in page: the brand and the language menu only. */
export function SignInHeader() {
  const { t } = useTranslation();
  return (
    <header className="app-header">
      <span className="app-brand">
        <BrandMark />
        <span className="app-brand-text">
          <strong>{t('app_name')}</strong>
          <small>{t('institute')}</small>
        </span>
      </span>
      <div className="app-header-tools">
        <LanguageMenu />
      </div>
    </header>
  );
}
