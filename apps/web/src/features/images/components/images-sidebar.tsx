import { FolderOutlined, InboxOutlined, PictureOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FolderItem } from '../../../lib/normalize-folder';
import type { FolderFilter } from '../api/list-images';

interface Props {
  value: FolderFilter;
  onChange: (v: FolderFilter) => void;
  facets: { all: number; uncategorized: number } | null;
  folders: FolderItem[];
}

/** All images (count), Uncategorized (count), then each folder with its imageCount; a click filters the grid. */
export function ImagesSidebar({ value, onChange, facets, folders }: Props) {
  const { t } = useTranslation('images');
  const entry = (key: FolderFilter, icon: ReactNode, label: string, count: number | undefined) => (
    <li key={String(key)}>
      <button
        type="button"
        className={`images-sidebar-entry${value === key ? ' is-active' : ''}`}
        onClick={() => onChange(key)}
        data-testid="sidebar-entry"
        data-key={String(key)}
        aria-current={value === key}
      >
        {icon}
        <span className="images-sidebar-label" title={label}>
          {label}
        </span>
        <span className="images-sidebar-count">{count ?? '–'}</span>
      </button>
    </li>
  );
  return (
    <aside className="images-sidebar" aria-label={t('folders')}>
      <ul>
        {entry('all', <PictureOutlined />, t('all_images'), facets?.all)}
        {entry('none', <InboxOutlined />, t('uncategorized'), facets?.uncategorized)}
      </ul>
      <div className="images-sidebar-title">{t('folders')}</div>
      <ul>{folders.map((f) => entry(f.id, <FolderOutlined />, f.name, f.imageCount))}</ul>
    </aside>
  );
}
