import { Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageShell } from '../../lib/page-shell';
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
    <PageShell name="samples" title={t('title')} subtitle={t('description_text')}>
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
    </PageShell>
  );
}
