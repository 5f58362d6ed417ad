import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../lib/i18n';

/** Each language is named in itself, so a reader of either can find theirs. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '中文' };

export function LanguageMenu() {
  const { i18n, t } = useTranslation();
  const current = (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as Language) : 'en';
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((lng) => ({ key: lng, label: LANGUAGE_NAMES[lng] })),
        onClick: ({ key }) => void i18n.changeLanguage(key),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('language')} data-testid="language-menu">
        {LANGUAGE_NAMES[current]}
      </Button>
    </Dropdown>
  );
}
