import { GROUP_CI_MIN_IMAGES, type ResultGroup } from '@cassavascope/contract';
import { Grid, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatPpd } from '../ppd';
import { fieldLabel } from '../field-label';

/**
 * The group table: each key field, n (images and specimens), mean PPD, SD, 95 % interval and band counts. A row
 * opens its group. On a phone the key, n and the mean fit the screen, with the interval, SD, specimens and bands
 * stacked under the mean (issue 25 item 9: the columns that scrolled sideways read as a table cut off).
 */
export function GroupTable({
  groups,
  by,
  onPick,
}: {
  groups: ResultGroup[];
  by: string[];
  onPick: (g: ResultGroup) => void;
}) {
  const { t } = useTranslation('samples');
  const phone = Grid.useBreakpoint().md === false;
  // Fewer than GROUP_CI_MIN_IMAGES photos have no interval (the server gives none): the cell says why.
  const interval = (g: ResultGroup) =>
    g.ci95 ? (
      `${g.ci95[0].toFixed(2)} – ${g.ci95[1].toFixed(2)}`
    ) : g.images < GROUP_CI_MIN_IMAGES ? (
      <Typography.Text type="secondary" data-testid="group-no-ci">
        {t('no_interval', { min: GROUP_CI_MIN_IMAGES })}
      </Typography.Text>
    ) : (
      '–'
    );
  const keyCell = (g: ResultGroup, f: string) =>
    g.key[f] === null ? <Typography.Text type="secondary">{t('no_value')}</Typography.Text> : String(g.key[f]);
  const specimens = { title: t('col_specimens'), dataIndex: 'specimens', key: 'specimens', align: 'right' as const };
  const sd = (g: ResultGroup) => (g.sd === null ? '–' : g.sd.toFixed(2));
  const bands = (g: ResultGroup) => (
    <span className="group-bands" data-testid="group-bands">
      <span className="band-dot band-dot-healthy" />
      {g.bands.healthy} <span className="band-dot band-dot-mild" />
      {g.bands.mild} <span className="band-dot band-dot-severe" />
      {g.bands.severe}
    </span>
  );
  return (
    <Table
      size="small"
      rowKey={(g) => JSON.stringify(g.key)}
      dataSource={groups}
      pagination={{ pageSize: 50, hideOnSinglePage: true }}
      scroll={{ x: true }}
      data-testid="groups-table"
      onRow={(g) => ({ onClick: () => onPick(g), className: 'groups-row' })}
      columns={[
        ...by.map((f) => ({
          title: fieldLabel(t, f),
          key: f,
          render: (_: unknown, g: ResultGroup) => keyCell(g, f),
        })),
        { title: t('col_images'), dataIndex: 'images', key: 'images', align: 'right' as const },
        ...(phone ? [] : [specimens]),
        {
          title: phone ? t('col_mean_ci') : t('col_mean'),
          key: 'mean',
          align: 'right' as const,
          render: (_: unknown, g: ResultGroup) => (
            <>
              <strong data-testid="group-mean">{formatPpd(g.mean)}</strong>
              {phone ? (
                <Typography.Text type="secondary" className="group-mean-ci" data-testid="group-mean-ci">
                  {interval(g)}
                </Typography.Text>
              ) : null}
              {phone ? (
                <span className="group-mean-more">
                  <span>
                    {t('col_sd')} <span data-testid="group-sd">{sd(g)}</span> ·{' '}
                    {t('specimen_count', { count: g.specimens })}
                  </span>
                  {bands(g)}
                </span>
              ) : null}
            </>
          ),
        },
        ...(phone
          ? []
          : [
              {
                title: t('col_sd'),
                key: 'sd',
                align: 'right' as const,
                render: (_: unknown, g: ResultGroup) => <span data-testid="group-sd">{sd(g)}</span>,
              },
            ]),
        ...(phone
          ? []
          : [
              {
                title: t('col_ci'),
                key: 'ci',
                render: (_: unknown, g: ResultGroup) => <span data-testid="group-ci">{interval(g)}</span>,
              },
            ]),
        ...(phone ? [] : [{ title: t('col_bands'), key: 'bands', render: (_: unknown, g: ResultGroup) => bands(g) }]),
      ]}
    />
  );
}
