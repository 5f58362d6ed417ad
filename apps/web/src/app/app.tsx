import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, Spin } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppHeader, SignInHeader } from './app-header';
import { createQueryClient } from './query-client';
import { cspNonce } from '../lib/csp';
import { SectionProvider, useCurrentSection } from '../lib/section-context';
import type { Section } from '../lib/sections';
import { prefetchSections, SECTION_PAGES } from './sections';
import { LabelPainterHost } from '../features/labels/label-painter-host';
import { SessionGate } from './session-gate';
import { theme } from './theme';
import './app.css';

function CurrentSection() {
  const section = useCurrentSection();
  const [first] = useState(section);
  const queryClient = useQueryClient();
  useEffect(() => prefetchSections(first, queryClient), [first, queryClient]);
  const Page = SECTION_PAGES[section];
  return (
    <Suspense
      fallback={
        <div className="section-loading">
          <Spin size="large" />
        </div>
      }
    >
      {/* data-section marks the loaded page (e2e tests wait for it). */}
      <div data-section={section}>
        <Page />
      </div>
    </Suspense>
  );
}

function AppFooter() {
  const { t } = useTranslation();
  return (
    <footer className="app-footer">
      <span>
        © {new Date().getFullYear()} {t('institute')}
      </span>
      <span>{t('footer_note')}</span>
    </footer>
  );
}

const CSP = cspNonce ? { nonce: cspNonce } : undefined;
// Ant Design spaces out a two-character Chinese label ("关 闭", "登 录", "取 消"): Chinese is not written so.
const BUTTON = { autoInsertSpace: false };

/** Ant Design's locale follows the app language (en_US / zh_CN). */
function LocalizedProviders({ initialSection }: { initialSection?: Section | undefined }) {
  const { i18n, t } = useTranslation();
  const zh = i18n.language === 'zh';
  const appName = t('app_name');
  useEffect(() => {
    document.documentElement.lang = zh ? 'zh-CN' : 'en';
    // The tab title is the product's name in the UI's language.
    document.title = appName;
  }, [zh, appName]);
  return (
    // csp: Ant Design's <style> elements carry the page's nonce (the server's CSP refuses inline styles without it).
    <ConfigProvider locale={zh ? zhCN : enUS} theme={theme} csp={CSP} button={BUTTON}>
      <AntApp>
        <SectionProvider initial={initialSection}>
          <SessionGate header={<SignInHeader />}>
            <div className="app-layout">
              <AppHeader />
              <main className="app-main">
                <CurrentSection />
              </main>
              <AppFooter />
            </div>
            <LabelPainterHost />
          </SessionGate>
        </SectionProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export function App({ initialSection }: { initialSection?: Section }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <LocalizedProviders initialSection={initialSection} />
    </QueryClientProvider>
  );
}
