import { Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { api } from './api-client';

import type { MetadataFilterValue } from './metadata-params';

const fieldsSchema = z.array(z.object({ field: z.string(), count: z.number() }));
/** Every field name in use with its image count, most used first: for the filter and the Images grouping. */
export const sampleFieldsQuery = {
  queryKey: ['samples', 'fields'],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get<z.infer<typeof fieldsSchema>>('/images/metadata/fields/', undefined, signal, fieldsSchema),
  staleTime: 30_000,
};
const valuesSchema = z.array(z.object({ value: z.union([z.number(), z.string()]), count: z.number() }));

/**
 * A field and one of its values, for the Images and Results filters ("genotype = TME419"). Shows nothing while
 * no image has sample fields, so libraries without them keep their toolbar as it was.
 */
export function MetadataFilter({
  value,
  onChange,
}: {
  value: MetadataFilterValue;
  onChange: (next: MetadataFilterValue) => void;
}) {
  const { t } = useTranslation();
  const fields = useQuery(sampleFieldsQuery);
  const pending = value?.field ?? null;
  // A new field starts without a value (no filter yet) until one is picked.
  const setPending = (f: string | null) => onChange(f ? { field: f, value: '' } : null);
  const values = useQuery({
    queryKey: ['samples', 'values', pending],
    enabled: pending !== null,
    queryFn: ({ signal }) =>
      api.get<z.infer<typeof valuesSchema>>('/images/metadata/values/', { field: pending }, signal, valuesSchema),
    staleTime: 30_000,
  });
  if (!fields.data || fields.data.length === 0) return null;
  const label = (f: string) => t(`samples:field.${f}`, { defaultValue: f });
  return (
    <Space.Compact className="metadata-filter" data-testid="metadata-filter">
      <Select
        allowClear
        placeholder={t('metadata_filter.field')}
        value={pending ?? undefined}
        options={fields.data.map((f) => ({ value: f.field, label: label(f.field) }))}
        onChange={(f: string | undefined) => setPending(f ?? null)}
        popupMatchSelectWidth={false}
        style={{ minWidth: 130 }}
        aria-label={t('metadata_filter.field')}
        data-testid="metadata-filter-field"
      />
      <Select
        showSearch
        allowClear
        disabled={pending === null}
        placeholder={t('metadata_filter.value')}
        value={value?.value || undefined}
        options={(values.data ?? []).map((v) => ({ value: String(v.value), label: `${v.value} (${v.count})` }))}
        onChange={(v: string | undefined) => onChange(pending ? { field: pending, value: v ?? '' } : null)}
        popupMatchSelectWidth={false}
        style={{ minWidth: 130 }}
        aria-label={t('metadata_filter.value')}
        data-testid="metadata-filter-value"
      />
    </Space.Compact>
  );
}
