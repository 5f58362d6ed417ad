import { DownloadOutlined } from '@ant-design/icons';
import type { ResultGroup } from '@cassavascope/contract';
import { Alert, Button, Drawer, Empty, Image, Select, Space, Spin, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/error-message';
import { formatPpd } from '../../../lib/ppd';
import {
  groupsExportUrl,
  useGroupImages,
  useMetadataFields,
  useResultGroups,
  useTaskChoices,
} from '../api/samples-api';
import { DotPlot } from './dot-plot';
import { fieldLabel } from './metadata-values';

type Key = ResultGroup['key'];

/**
 * "By group": mean PPD per genotype (optionally x days after harvest) over a task's scored results, with n, SD,
 * 95 % interval and band counts; a table, a dot plot and a CSV. A group opens its photos.
 */
export function GroupsPanel({ initialTaskId = null }: { initialTaskId?: number | null }) {
  const { t } = useTranslation('samples');
  const fields = useMetadataFields();
  const tasks = useTaskChoices();
  const names = fields.data?.map((f) => f.field) ?? [];
  const [first, setFirst] = useState<string | null>(null);
  const [second, setSecond] = useState<string | null>(null);
  const [taskId, setTaskId] = useState<number | null>(initialTaskId);
  const [picked, setPicked] = useState<ResultGroup | null>(null);
  // Until the researcher picks, group by genotype (when the library has it), else the most used field.
  const by1 = first ?? (names.includes('genotype') ? 'genotype' : (names[0] ?? null));
  const by = [by1, second !== by1 ? second : null].filter((f): f is string => !!f);
  const query = { by, taskId };
  const groups = useResultGroups(query);

  const keyText = useMemo(
    () => (key: Key) =>
      by
        .map((f) =>
          key[f] === null || key[f] === undefined
            ? t('no_value')
            : `${by.length > 1 ? `${fieldLabel(t, f)} ` : ''}${key[f]}`,
        )
        .join(' · '),
    [by, t],
  );
  const fieldOptions = names.map((f) => ({ value: f, label: fieldLabel(t, f) }));
  const taskOptions = [
    { value: 0, label: t('all_tasks') },
    ...(tasks.data ?? []).map((task) => ({ value: task.id, label: task.name })),
  ];

  if (fields.data && names.length === 0) return <Empty description={t('no_fields')} data-testid="groups-empty" />;

  return (
    <div className="samples-panel" data-testid="groups-panel">
      <Space wrap className="samples-controls">
        <Select
          className="samples-task"
          value={taskId ?? 0}
          options={taskOptions}
          onChange={(v: number) => setTaskId(v === 0 ? null : v)}
          aria-label={t('task')}
          data-testid="groups-task"
        />
        <Select
          className="samples-field"
          value={by1 ?? undefined}
          options={fieldOptions}
          onChange={(v: string) => setFirst(v)}
          aria-label={t('group_by')}
          data-testid="groups-by"
        />
        <Select
          className="samples-field"
          allowClear
          placeholder={t('then_by')}
          value={second ?? undefined}
          options={fieldOptions.filter((o) => o.value !== by1)}
          onChange={(v: string | undefined) => setSecond(v ?? null)}
          aria-label={t('then_by')}
          data-testid="groups-then-by"
        />
        <Button
          icon={<DownloadOutlined />}
          href={groupsExportUrl(query)}
          disabled={by.length === 0}
          data-testid="groups-export"
        >
          {t('export_csv')}
        </Button>
      </Space>
      {groups.isError ? <Alert type="error" showIcon message={errorMessage(t, groups.error, 'groups_failed')} /> : null}
      {groups.isLoading ? <Spin /> : null}
      {groups.data && groups.data.length === 0 ? <Empty description={t('no_results')} /> : null}
      {groups.data && groups.data.length > 0 ? (
        <>
          <Table
            size="small"
            rowKey={(g) => JSON.stringify(g.key)}
            dataSource={groups.data}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            scroll={{ x: true }}
            data-testid="groups-table"
            onRow={(g) => ({ onClick: () => setPicked(g), className: 'groups-row' })}
            columns={[
              ...by.map((f) => ({
                title: fieldLabel(t, f),
                key: f,
                render: (_: unknown, g: ResultGroup) =>
                  g.key[f] === null ? (
                    <Typography.Text type="secondary">{t('no_value')}</Typography.Text>
                  ) : (
                    String(g.key[f])
                  ),
              })),
              { title: t('col_images'), dataIndex: 'images', key: 'images', align: 'right' as const },
              { title: t('col_specimens'), dataIndex: 'specimens', key: 'specimens', align: 'right' as const },
              {
                title: t('col_mean'),
                key: 'mean',
                align: 'right' as const,
                render: (_: unknown, g: ResultGroup) => <strong data-testid="group-mean">{formatPpd(g.mean)}</strong>,
              },
              {
                title: t('col_sd'),
                key: 'sd',
                align: 'right' as const,
                render: (_: unknown, g: ResultGroup) => (g.sd === null ? '–' : g.sd.toFixed(2)),
              },
              {
                title: t('col_ci'),
                key: 'ci',
                render: (_: unknown, g: ResultGroup) =>
                  g.ci95 ? `${g.ci95[0].toFixed(2)} – ${g.ci95[1].toFixed(2)}` : '–',
              },
              {
                title: t('col_bands'),
                key: 'bands',
                render: (_: unknown, g: ResultGroup) => (
                  <span className="group-bands">
                    <span className="band-dot band-dot-healthy" />
                    {g.bands.healthy} <span className="band-dot band-dot-mild" />
                    {g.bands.mild} <span className="band-dot band-dot-severe" />
                    {g.bands.severe}
                  </span>
                ),
              },
            ]}
          />
          <div className="dot-plot-box">
            <DotPlot groups={groups.data} label={(g) => keyText(g.key)} onPick={setPicked} />
          </div>
        </>
      ) : null}
      <GroupPhotos group={picked} title={picked ? keyText(picked.key) : ''} onClose={() => setPicked(null)} />
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
