import { FolderOpenOutlined, FolderOutlined, InboxOutlined } from '@ant-design/icons';
import { Checkbox, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FolderItem } from '../../../lib/normalize-folder';
import type { ImageFilter } from '../api/get-prediction-images';
import type { PredictionSelection } from '../hooks/use-prediction-selection';

interface Props {
  folders: FolderItem[];
  libraryCount: number | null;
  uncategorizedCount: number | null;
  current: ImageFilter['folder'];
  onShow: (folder: ImageFilter['folder']) => void;
  selection: PredictionSelection;
}

/**
 * Folders of the prediction screen: clicking a name shows its images in the checklist; the checkbox picks the
 * whole folder for the task (sent as folder_ids).
 */
export function FolderSidebar({ folders, libraryCount, uncategorizedCount, current, onShow, selection }: Props) {
  const { t } = useTranslation('prediction');
  // Without the server's facets: the library less what the folders hold.
  const uncategorized =
    uncategorizedCount ??
    (libraryCount === null ? null : Math.max(0, libraryCount - folders.reduce((sum, f) => sum + f.imageCount, 0)));
  return (
    <nav className="prediction-folders" aria-label={t('folders.title')}>
      <div className="prediction-folders-title">{t('folders.title')}</div>
      <button
        type="button"
        className={`prediction-folder${current === null ? ' is-current' : ''}`}
        onClick={() => onShow(null)}
      >
        <InboxOutlined />
        <span className="prediction-folder-name">{t('folders.all')}</span>
        <span className="prediction-folder-count">{libraryCount ?? ''}</span>
      </button>
      <button
        type="button"
        className={`prediction-folder${current === 'none' ? ' is-current' : ''}`}
        onClick={() => onShow('none')}
      >
        <FolderOutlined />
        <span className="prediction-folder-name">{t('folders.uncategorized')}</span>
        <span className="prediction-folder-count" data-testid="prediction-uncategorized-count">
          {uncategorized ?? ''}
        </span>
      </button>
      {folders.map((folder) => (
        <div key={folder.id} className={`prediction-folder-row${current === folder.id ? ' is-current' : ''}`}>
          <Tooltip title={t('folders.pick_whole')} placement="left">
            <Checkbox
              aria-label={t('folders.pick_folder', { name: folder.name })}
              checked={selection.isFolderSelected(folder.id)}
              onChange={(e) => selection.toggleFolder(folder.id, e.target.checked)}
            />
          </Tooltip>
          <button type="button" className="prediction-folder" onClick={() => onShow(folder.id)}>
            {current === folder.id ? <FolderOpenOutlined /> : <FolderOutlined />}
            <span className="prediction-folder-name" title={folder.name}>
              {folder.name}
            </span>
            <span className="prediction-folder-count">{folder.imageCount}</span>
          </button>
        </div>
      ))}
    </nav>
  );
}
