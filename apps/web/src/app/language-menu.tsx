import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../lib/i18n';

/** Each language is named in itself, so a reader of either can find theirs. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '中文' };

export function LanguageMenu() {
  const { i18n, t } = useTranslation();
  const current = (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as Language) : 'en';
  // Controlled: the language switch re-renders the whole app while the menu closes, and on a narrow screen the
  // uncontrolled menu then stayed open (and the next click on the button only closed it).
  const [open, setOpen] = useState(false);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((lng) => ({ key: lng, label: LANGUAGE_NAMES[lng] })),
        onClick: ({ key }) => {
          setOpen(false);
          void i18n.changeLanguage(key);
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('language')} data-testid="language-menu">
        {LANGUAGE_NAMES[current]}
      </Button>
    </Dropdown>
  );
}
