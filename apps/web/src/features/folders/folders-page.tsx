import {
  DeleteOutlined,
  EditOutlined,
  FolderOpenOutlined,
  PictureOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Empty, Row, Skeleton, Statistic, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../lib/auth';
import { folderDescriptionText } from '../../lib/folder-description';
import { useNavigateSection } from '../../lib/section-context';
import { invalidateLibrary, useFolders } from '../../lib/folders-api';
import { handOver } from '../../lib/hand-over';
import { formatDate } from '../../lib/format';
import { LoadErrorState } from '../../lib/load-error-state';
import { PageShell } from '../../lib/page-shell';
import type { FolderItem } from '../../lib/normalize-folder';
import { FolderDeleteWizard } from './components/folder-delete-wizard';
import { FolderFormModal } from './components/folder-form-modal';
import './folders.css';

/** Folders screen (spec section 2, Folders). */
export default function FoldersPage() {
  const { t } = useTranslation('folders');
  const { can, reason } = useCan();
  const changes = can('change');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const folders = useFolders();
  const [form, setForm] = useState<{ open: boolean; folder: FolderItem | null }>({ open: false, folder: null });
  const [deleting, setDeleting] = useState<FolderItem | null>(null);
  const navigate = useNavigateSection();
  const openFolder = (id: number) => {
    handOver('imagesFolder', id);
    navigate('images');
  };

  useEffect(() => {
    if (folders.isError) message.error(t('load_failed'));
  }, [folders.isError, folders.errorUpdatedAt, message, t]);

  const list = folders.data ?? [];
  const imageTotal = list.reduce((sum, f) => sum + f.imageCount, 0);
  const average = list.length ? Math.round(imageTotal / list.length) : 0;
  const reload = () => void invalidateLibrary(queryClient);
  // The first load failed: the figures are unknown (a dash), and the list is an error, not "no folders yet".
  const failed = folders.isError && !folders.data;
  const figure = (n: number) => (failed ? '–' : n);

  return (
    <PageShell
      name="folders"
      title={t('title')}
      subtitle={t('description_text')}
      actions={
        <>
          <Button icon={<ReloadOutlined spin={folders.isFetching} />} onClick={reload} disabled={folders.isFetching}>
            {t('refresh')}
          </Button>
          <Tooltip title={reason('change')}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={!changes}
              data-testid="create-folder"
              onClick={() => setForm({ open: true, folder: null })}
            >
              {t('create')}
            </Button>
          </Tooltip>
        </>
      }
    >
      <Row gutter={[16, 16]} className="folders-stats">
        <Col xs={24} sm={8}>
          <Card>
            <Statistic
              title={t('stat_total')}
              value={figure(list.length)}
              prefix={<FolderOpenOutlined />}
              data-testid="stat-folders"
            />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic
              title={t('stat_images')}
              value={figure(imageTotal)}
              prefix={<PictureOutlined />}
              data-testid="stat-images"
            />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic title={t('stat_average')} value={figure(average)} data-testid="stat-average" />
          </Card>
        </Col>
      </Row>

      {folders.isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : failed ? (
        <Card className="folders-empty">
          <LoadErrorState error={folders.error} onRetry={reload} retrying={folders.isFetching} testId="folders-error" />
        </Card>
      ) : list.length === 0 ? (
        <Card className="folders-empty">
          <Empty description={t('empty')}>
            <Typography.Paragraph type="secondary">{t('empty_tip')}</Typography.Paragraph>
            <Tooltip title={reason('change')}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                disabled={!changes}
                onClick={() => setForm({ open: true, folder: null })}
              >
                {t('create')}
              </Button>
            </Tooltip>
          </Empty>
        </Card>
      ) : (
        <div className="folders-grid">
          {list.map((f) => (
            <Card
              key={f.id}
              className="folder-card"
              data-testid="folder-card"
              data-folder-name={f.name}
              hoverable
              // The card opens its images on the Images screen; edit and delete stay on their buttons.
              role="link"
              tabIndex={0}
              aria-label={t('open_folder', { name: f.name })}
              onClick={() => openFolder(f.id)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && e.target === e.currentTarget) openFolder(f.id);
              }}
              actions={[
                <Tooltip title={reason('change') ?? t('edit')} key="edit">
                  <Button
                    type="text"
                    disabled={!changes}
                    icon={<EditOutlined />}
                    aria-label={t('edit')}
                    data-testid="folder-edit"
                    onClick={(e) => {
                      e.stopPropagation();
                      setForm({ open: true, folder: f });
                    }}
                  />
                </Tooltip>,
                <Tooltip title={reason('change') ?? t('delete')} key="delete">
                  <Button
                    type="text"
                    danger
                    disabled={!changes}
                    icon={<DeleteOutlined />}
                    aria-label={t('delete')}
                    data-testid="folder-delete"
                    onClick={(e) => {
                      e.stopPropagation();
                      setDeleting(f);
                    }}
                  />
                </Tooltip>,
              ]}
            >
              <div className="folder-card-head">
                <div className="folder-card-icon">
                  <FolderOpenOutlined />
                </div>
                <div className="folder-card-title">
                  <Typography.Text strong ellipsis={{ tooltip: f.name }}>
                    {f.name}
                  </Typography.Text>
                  <Typography.Text type="secondary" className="folder-card-count" data-testid="folder-count">
                    {t('image_count', { count: f.imageCount })}
                  </Typography.Text>
                </div>
              </div>
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="folder-card-desc">
                {f.description ? folderDescriptionText(t, f.description) : t('no_description')}
              </Typography.Paragraph>
              <Typography.Text type="secondary" className="folder-card-date">
                {t('created_on', { date: formatDate(f.createdDate) })}
              </Typography.Text>
            </Card>
          ))}
        </div>
      )}

      <FolderFormModal
        open={form.open}
        folder={form.folder}
        onClose={() => setForm({ open: false, folder: null })}
        onSaved={() => {
          setForm({ open: false, folder: null });
          reload();
        }}
      />
      <FolderDeleteWizard
        folder={deleting}
        folders={list}
        onClose={() => setDeleting(null)}
        onDeleted={() => {
          setDeleting(null);
          reload();
        }}
      />
    </PageShell>
  );
}
