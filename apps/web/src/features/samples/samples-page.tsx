import { Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupsPanel } from './components/groups-panel';
import { PatternPanel } from './components/pattern-panel';
import { SheetPanel } from './components/sheet-panel';
import './samples.css';

/**
 * Samples (issue 17): a trial's genotype, replicate, days after harvest... per image, read from the file names
 * or a field-book sheet, and the results per group (mean PPD per genotype with its spread).
 */
export default function SamplesPage() {
  const { t } = useTranslation('samples');
  const [tab, setTab] = useState('names');
  return (
    <div className="page samples-page">
      <div className="page-head">
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            {t('title')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
            {t('description_text')}
          </Typography.Paragraph>
        </div>
      </div>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          { key: 'names', label: <span data-testid="tab-names">{t('tab_names')}</span>, children: <PatternPanel /> },
          { key: 'sheet', label: <span data-testid="tab-sheet">{t('tab_sheet')}</span>, children: <SheetPanel /> },
          {
            key: 'groups',
            label: <span data-testid="tab-groups">{t('tab_groups')}</span>,
            children: <GroupsPanel />,
          },
        ]}
      />
    </div>
  );
}
