import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../../../lib/field-label';

/** An image's fields as tags ("genotype TME419"), a refused value in red with why on hover. */
export function MetadataValues({
  metadata,
  problems,
}: {
  metadata: Record<string, string | number>;
  problems?: Record<string, string> | undefined;
}) {
  const { t } = useTranslation('samples');
  return (
    <span className="metadata-values">
      {Object.entries(metadata).map(([field, value]) =>
        problems?.[field] ? (
          <Tooltip key={field} title={t('value_refused')}>
            <Tag color="error" data-field={field}>
              {fieldLabel(t, field)} {String(value)}
            </Tag>
          </Tooltip>
        ) : (
          <Tag key={field} data-field={field}>
            {fieldLabel(t, field)} <strong>{String(value)}</strong>
          </Tag>
        ),
      )}
    </span>
  );
}
