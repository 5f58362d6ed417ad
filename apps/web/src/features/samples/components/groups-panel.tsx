import { DownloadOutlined } from '@ant-design/icons';
import type { ResultGroup } from '@cassavascope/contract';
import { Button, Drawer, Image, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../../../lib/field-label';
import { groupKeyText } from '../../../lib/groups/group-key';
import { GroupSummary, type GroupFields } from '../../../lib/groups/group-summary';
import { groupsExportUrl } from '../../../lib/groups/groups-api';
import { formatPpd } from '../../../lib/ppd';
import { useGroupImages, useTaskChoices } from '../api/samples-api';

/**
 * "By group" on the Samples screen, right after the fields are read: mean PPD per group over one task's (or every
 * task's) scored results, the same table and chart as Results' "By group" view; a group opens its photos.
 */
export function GroupsPanel() {
  const { t } = useTranslation('samples');
  const tasks = useTaskChoices();
  const [fields, setFields] = useState<GroupFields>({ first: null, second: null });
  const [taskId, setTaskId] = useState<number | null>(null);
  const [picked, setPicked] = useState<ResultGroup | null>(null);
  const taskOptions = [
    { value: 0, label: t('all_tasks') },
    ...(tasks.data ?? []).map((task) => ({ value: task.id, label: task.name })),
  ];
  return (
    <div className="samples-panel">
      <Select
        className="groups-task"
        value={taskId ?? 0}
        options={taskOptions}
        onChange={(v: number) => setTaskId(v === 0 ? null : v)}
        aria-label={t('task')}
        prefix={t('task')}
        data-testid="groups-task"
      />
      <GroupSummary
        filter={{ task_id: taskId }}
        fields={fields}
        onFieldsChange={setFields}
        onPick={setPicked}
        actions={(query) => (
          <Button
            icon={<DownloadOutlined />}
            href={groupsExportUrl(query)}
            disabled={query.by.length === 0}
            data-testid="groups-export"
          >
            {t('export_csv')}
          </Button>
        )}
      />
      <GroupPhotos
        group={picked}
        title={picked ? groupKeyText(picked.key, (f) => fieldLabel(t, f), t('no_value')) : ''}
        onClose={() => setPicked(null)}
      />
    </div>
  );
}

/** The photos behind one group (images with those field values and a PPD). */
function GroupPhotos({ group, title, onClose }: { group: ResultGroup | null; title: string; onClose: () => void }) {
  const { t } = useTranslation('samples');
  const images = useGroupImages(group ? group.key : null);
  return (
    <Drawer open={group !== null} onClose={onClose} size="large" data-testid="group-photos">
      {group ? (
        <Typography.Title level={4} data-testid="group-photos-title">
          {title}
        </Typography.Title>
      ) : null}
      {group ? (
        <Typography.Paragraph>
          {t('group_summary', { images: group.images, mean: formatPpd(group.mean) })}
        </Typography.Paragraph>
      ) : null}
      {images.isLoading ? <Spin /> : null}
      <div className="group-photos">
        <Image.PreviewGroup>
          {(images.data ?? []).map((img) => (
            <figure key={img.id}>
              <Image src={img.thumbnailUrl} preview={{ src: img.url }} alt={img.name} width={150} height={110} />
              <figcaption>
                {img.name} · {formatPpd(img.ppdValue)}
              </figcaption>
            </figure>
          ))}
        </Image.PreviewGroup>
      </div>
    </Drawer>
  );
}
