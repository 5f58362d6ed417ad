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
import { GROUP_PHOTOS, groupTasksFilter, useGroupResults, useTaskChoices } from '../api/samples-api';

/**
 * "By group" on the Samples screen, right after the fields are read: mean PPD per group, the same table and chart
 * as Results' "By group" view; a group opens its photos. A photo is one observation: by default each photo counts
 * once, by its newest result; the researcher may pick tasks instead (each photo then by its newest result of those).
 */
export function GroupsPanel() {
  const { t } = useTranslation('samples');
  const tasks = useTaskChoices();
  const [fields, setFields] = useState<GroupFields>({ first: null, second: null });
  const [taskIds, setTaskIds] = useState<number[]>([]);
  const [picked, setPicked] = useState<ResultGroup | null>(null);
  const taskOptions = (tasks.data ?? []).map((task) => ({ value: task.id, label: task.name }));
  const taskNames = taskIds.map((id) => tasks.data?.find((task) => task.id === id)?.name ?? `#${id}`);
  return (
    <div className="samples-panel">
      <Select
        className="groups-task"
        mode="multiple"
        allowClear
        value={taskIds}
        options={taskOptions}
        onChange={(ids: number[]) => setTaskIds(ids)}
        placeholder={t('tasks_placeholder')}
        optionFilterProp="label"
        aria-label={t('tasks')}
        prefix={t('tasks')}
        maxTagCount="responsive"
        data-testid="groups-task"
      />
      <GroupSummary
        filter={groupTasksFilter(taskIds)}
        taskNames={taskNames}
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
        taskIds={taskIds}
        title={picked ? groupKeyText(picked.key, (f) => fieldLabel(t, f), t('no_value')) : ''}
        onClose={() => setPicked(null)}
      />
    </div>
  );
}

/** The photos behind one group: the result each photo counts with (as the group summary), and its value. */
function GroupPhotos({
  group,
  taskIds,
  title,
  onClose,
}: {
  group: ResultGroup | null;
  taskIds: number[];
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('samples');
  const results = useGroupResults(group ? group.key : null, taskIds);
  const shown = results.data?.results ?? [];
  return (
    <Drawer open={group !== null} onClose={onClose} size="large" data-testid="group-photos">
      {group ? (
        <Typography.Title level={4} data-testid="group-photos-title">
          {title}
        </Typography.Title>
      ) : null}
      {group ? (
        <Typography.Paragraph data-testid="group-photos-summary">
          {t('group_summary', { count: group.images, mean: formatPpd(group.mean) })}
          {group.images > shown.length && shown.length >= GROUP_PHOTOS
            ? ` ${t('group_photos_first', { count: shown.length })}`
            : null}
        </Typography.Paragraph>
      ) : null}
      {results.isLoading ? <Spin /> : null}
      <div className="group-photos">
        <Image.PreviewGroup>
          {shown.map((r) => (
            <figure key={r.id} data-testid="group-photo">
              <Image
                src={r.thumbnailUrl ?? r.originalImageUrl ?? undefined}
                preview={{ src: r.originalImageUrl ?? undefined }}
                alt={r.imageName}
                width={150}
                height={110}
              />
              {/* The name may be cut; the value the photo counts with never is. */}
              <figcaption title={r.imageName}>
                <span className="group-photo-name">{r.imageName}</span>
                <span className="group-photo-ppd" data-testid="group-photo-ppd">
                  PPD {formatPpd(r.ppdValue)}
                </span>
              </figcaption>
            </figure>
          ))}
        </Image.PreviewGroup>
      </div>
    </Drawer>
  );
}
