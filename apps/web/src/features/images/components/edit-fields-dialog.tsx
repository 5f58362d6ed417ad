import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { AutoComplete, Button, Input, Modal, Progress, Space, Typography } from 'antd';
import { fieldNameProblem, typeMetadataValue, WELL_KNOWN_FIELDS } from '@cassavascope/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/error-message';
import { editImageFields } from '../api/sample-fields';

interface Row {
  field: string;
  value: string;
}

/**
 * Sets sample fields on the selected images (one or many): each row a field and its value; an empty value removes
 * the field. Names and values are checked as the server checks them before anything is sent.
 */
export function EditFieldsDialog({
  ids,
  onClose,
  onDone,
}: {
  ids: number[] | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('images');
  const [rows, setRows] = useState<Row[]>([{ field: 'genotype', value: '' }]);
  const [done, setDone] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const count = ids?.length ?? 0;

  const problems = rows.map((r) => {
    if (!r.field.trim()) return r.value.trim() ? t('edit_fields.name_needed') : null;
    if (fieldNameProblem(r.field.trim())) return t('edit_fields.bad_name');
    const typed = typeMetadataValue(r.field.trim(), r.value);
    return typed.ok ? null : t('edit_fields.bad_value');
  });
  const usable = rows.filter((r, i) => r.field.trim() && !problems[i]);

  const save = async () => {
    if (!ids) return;
    const metadata = Object.fromEntries(
      usable.map((r) => [r.field.trim(), r.value.trim() === '' ? null : r.value.trim()]),
    );
    setError(null);
    setDone(0);
    try {
      await editImageFields(ids, metadata, setDone);
      onDone();
      setRows([{ field: 'genotype', value: '' }]);
    } catch (err) {
      setError(errorMessage(t, err, 'edit_fields.failed'));
    } finally {
      setDone(null);
    }
  };

  const options = WELL_KNOWN_FIELDS.map((w) => ({
    value: w.field,
    label: `${w.field} · ${t(`samples:field.${w.field}`)}`,
  }));
  return (
    <Modal
      open={ids !== null}
      title={t('edit_fields.title', { count })}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('edit_fields.save')}
      okButtonProps={{
        disabled: usable.length === 0 || problems.some(Boolean),
        loading: done !== null,
        ...{ 'data-testid': 'edit-fields-save' },
      }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('edit_fields.help')}</Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }}>
        {rows.map((row, i) => (
          <div key={i}>
            <Space.Compact style={{ width: '100%' }}>
              <AutoComplete
                value={row.field}
                options={options}
                onChange={(field: string) => setRows(rows.map((r, j) => (j === i ? { ...r, field } : r)))}
                placeholder={t('edit_fields.field')}
                style={{ width: '45%' }}
                aria-label={t('edit_fields.field')}
                data-testid="edit-field-name"
              />
              <Input
                value={row.value}
                onChange={(e) => setRows(rows.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)))}
                placeholder={t('edit_fields.value')}
                aria-label={t('edit_fields.value')}
                status={problems[i] ? 'error' : undefined}
                data-testid="edit-field-value"
              />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('edit_fields.remove_row')}
                onClick={() => setRows(rows.filter((_r, j) => j !== i))}
                disabled={rows.length === 1}
              />
            </Space.Compact>
            {problems[i] ? <Typography.Text type="danger">{problems[i]}</Typography.Text> : null}
          </div>
        ))}
        <Button
          icon={<PlusOutlined />}
          onClick={() => setRows([...rows, { field: '', value: '' }])}
          data-testid="edit-field-add"
        >
          {t('edit_fields.add_row')}
        </Button>
        {done !== null ? <Progress percent={Math.round((done / Math.max(1, count)) * 100)} size="small" /> : null}
        {error ? <Typography.Text type="danger">{error}</Typography.Text> : null}
      </Space>
    </Modal>
  );
}
