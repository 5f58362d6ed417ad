import { useQueryClient } from '@tanstack/react-query';
import { App, Alert, Button, Empty, Input, Select, Space, Table, Tooltip, Typography } from 'antd';
import { compileNamePattern, fitName, type MetadataParseResponse, type NameMismatch } from '@cassavascope/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth';
import { errorMessage } from '../../../lib/error-message';
import { invalidateLibrary, useFolders } from '../../../lib/folders-api';
import { nameMismatchText } from '../../../lib/name-fit';
import { NameFitList, PatternSuggestion } from '../../../lib/name-fit-report';
import { parseNames } from '../api/samples-api';
import { MetadataValues } from './metadata-values';

/** The pattern a Field Book / Cassavabase-style name follows in most trials. */
export const DEFAULT_PATTERN = '{genotype}_{rep}_{dah}d_{root}';
const PREVIEW_DELAY_MS = 300;

/**
 * "From file names": a pattern applied to a folder's names, with a live preview of what each matched name gives
 * and which names do not fit, each with why (the field, what it expects, what the name has), and a pattern read
 * from the names themselves when it fits more of them (issue 25 item 5); Apply stores the fields of the matched
 * images in one step.
 */
export function PatternPanel() {
  const { t } = useTranslation('samples');
  const { message } = App.useApp();
  const { can, reason } = useCan();
  const queryClient = useQueryClient();
  const folders = useFolders();
  const [folderId, setFolderId] = useState<number | null>(null);
  const [pattern, setPattern] = useState(DEFAULT_PATTERN);
  const [preview, setPreview] = useState<MetadataParseResponse | null>(null);
  // The pattern the preview was read with (the input may already hold a newer one).
  const [previewPattern, setPreviewPattern] = useState(pattern);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [applying, setApplying] = useState(false);

  // The preview follows the pattern as it is typed (debounced; an older answer never replaces a newer one).
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      parseNames(pattern, { folderId }, false, controller.signal)
        .then((res) => {
          setPreview(res);
          setPreviewPattern(pattern);
          setProblem(null);
        })
        .catch((err: unknown) => {
          if (controller.signal.aborted) return;
          setPreview(null);
          setProblem(
            err instanceof ApiError && err.fields?.pattern
              ? t('pattern_invalid')
              : errorMessage(t, err, 'preview_failed'),
          );
        })
        .finally(() => {
          if (!controller.signal.aborted) setLoading(false);
        });
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [pattern, folderId, t]);

  const refused = useMemo(() => preview?.matched.filter((m) => m.problems).length ?? 0, [preview]);
  // Why each name that gives no fields does not fit (read with the contract's rules, as the server reads it).
  const why = useMemo(() => {
    const out = new Map<number, NameMismatch>();
    const compiled = compileNamePattern(previewPattern);
    if (!preview || !compiled.ok) return out;
    for (const m of [...preview.matched.filter((m) => m.problems), ...preview.unmatched]) {
      const fit = fitName(compiled, m.name);
      if (!fit.ok) out.set(m.image_id, fit.mismatch);
    }
    return out;
  }, [preview, previewPattern]);
  const names = useMemo(
    () => (preview ? [...preview.matched, ...preview.unmatched].map((m) => m.name) : []),
    [preview],
  );

  const apply = async () => {
    setApplying(true);
    try {
      const res = await parseNames(pattern, { folderId }, true);
      message.success(t('applied', { count: res.applied ?? res.matched.length }));
      await invalidateLibrary(queryClient);
      await queryClient.invalidateQueries({ queryKey: ['samples'] });
    } catch (err) {
      message.error(errorMessage(t, err, 'apply_failed'));
    } finally {
      setApplying(false);
    }
  };

  const folderOptions = [
    { value: 0, label: t('uncategorized') },
    ...(folders.data ?? []).map((f) => ({ value: f.id, label: `${f.name} (${f.imageCount})` })),
  ];

  return (
    <div className="samples-panel" data-testid="pattern-panel">
      <Typography.Paragraph type="secondary">{t('pattern_help')}</Typography.Paragraph>
      <Space wrap className="samples-controls">
        <Select
          className="samples-folder"
          value={folderId ?? 0}
          options={folderOptions}
          onChange={(v: number) => setFolderId(v === 0 ? null : v)}
          aria-label={t('folder')}
          data-testid="pattern-folder"
        />
        <Input
          className="samples-pattern"
          value={pattern}
          onChange={(e) => setPattern(e.target.value)}
          aria-label={t('pattern')}
          status={problem ? 'error' : undefined}
          data-testid="pattern-input"
          spellCheck={false}
        />
        <Tooltip title={reason('change')}>
          <Button
            type="primary"
            onClick={() => void apply()}
            loading={applying}
            disabled={!can('change') || !preview || preview.matched.length === 0 || refused > 0}
            data-testid="pattern-apply"
          >
            {t('apply', { count: preview?.matched.length ?? 0 })}
          </Button>
        </Tooltip>
      </Space>
      <Typography.Text type="secondary" className="samples-hint">
        {t('pattern_fields_hint')}
      </Typography.Text>
      {problem ? <Alert type="error" showIcon message={problem} className="samples-alert" /> : null}
      {refused > 0 ? (
        <Alert type="warning" showIcon message={t('refused_values', { count: refused })} className="samples-alert" />
      ) : null}
      {preview && (refused > 0 || preview.unmatched.length > 0) ? (
        <PatternSuggestion
          names={names}
          pattern={previewPattern}
          fitting={preview.matched.length - refused}
          onUse={setPattern}
        />
      ) : null}
      {preview ? (
        <div className="samples-preview">
          <Typography.Title level={5} data-testid="matched-count">
            {t('matched', { count: preview.matched.length })}
          </Typography.Title>
          <Table
            size="small"
            rowKey="image_id"
            loading={loading}
            dataSource={preview.matched}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            scroll={{ x: true }}
            data-testid="matched-table"
            columns={[
              { title: t('name'), dataIndex: 'name', key: 'name', ellipsis: true },
              {
                title: t('values'),
                key: 'values',
                render: (_: unknown, row: MetadataParseResponse['matched'][number]) => {
                  const mismatch = why.get(row.image_id);
                  return (
                    <>
                      <MetadataValues metadata={row.metadata} problems={row.problems} />
                      {mismatch ? (
                        <Typography.Text type="danger" className="samples-why" data-testid="name-fit-reason">
                          {nameMismatchText(t, mismatch)}
                        </Typography.Text>
                      ) : null}
                    </>
                  );
                },
              },
            ]}
          />
          <Typography.Title level={5} data-testid="unmatched-count">
            {t('unmatched', { count: preview.unmatched.length })}
          </Typography.Title>
          {preview.unmatched.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('all_matched')} />
          ) : (
            <div className="samples-unmatched" data-testid="unmatched-list">
              <NameFitList
                items={preview.unmatched.flatMap((u) => {
                  const mismatch = why.get(u.image_id);
                  return mismatch ? [{ key: u.image_id, name: u.name, mismatch }] : [];
                })}
              />
            </div>
          )}
        </div>
      ) : null}
    </div>
  );
}
