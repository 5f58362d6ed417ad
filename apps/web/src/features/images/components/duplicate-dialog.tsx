import { Modal, Radio, Space, Typography, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DuplicateAction, DuplicateMatch } from '../api/upload-images';

/** `photo.jpg` -> `photo (2).jpg`: how the server names a kept copy (the first free number; 2 shown). */
export function copyExample(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (2)${name.slice(dot)}` : `${name} (2)`;
}

/**
 * Asks what to do with duplicates: skip (default), overwrite, or keep both (the new one under a new name). Cancel stops the upload. Each name says how it
 * matched (same name in the folder, same content elsewhere, or twice in this upload) and which image it matched.
 */
export function DuplicateDialog({
  names,
  matches,
  folderNames,
  onAnswer,
}: {
  names: string[] | null;
  matches: DuplicateMatch[];
  folderNames: Map<number, string>;
  onAnswer: (a: DuplicateAction | null) => void;
}) {
  const { t } = useTranslation('images');
  const matchOf = new Map(matches.map((m) => [m.name, m]));
  const reason = (name: string): string | null => {
    const m = matchOf.get(name);
    if (!m) return null;
    const folder = m.existing
      ? m.existing.folder_id === null
        ? t('uncategorized')
        : (folderNames.get(m.existing.folder_id) ?? '--')
      : '';
    const existing = m.existing?.name ?? '';
    return t(`duplicate_match.${m.by}`, { existing, folder });
  };
  const [action, setAction] = useState<DuplicateAction>('skip');
  useEffect(() => {
    if (names) setAction('skip');
  }, [names]);
  return (
    <Modal
      open={names !== null}
      title={t('duplicates_title')}
      okText={t('continue_upload')}
      cancelText={t('cancel')}
      onOk={() => onAnswer(action)}
      onCancel={() => onAnswer(null)}
      okButtonProps={{ 'data-testid': 'duplicate-ok' } as ButtonProps}
      zIndex={1100}
    >
      <Typography.Paragraph>{t('duplicates_text', { count: names?.length ?? 0 })}</Typography.Paragraph>
      <ul className="duplicate-names" data-testid="duplicate-names">
        {(names ?? []).slice(0, 20).map((n) => {
          const why = reason(n);
          return (
            <li key={n}>
              <span className="duplicate-name">{n}</span>
              {why ? (
                <span className="duplicate-reason" data-testid="duplicate-reason">
                  {why}
                </span>
              ) : null}
            </li>
          );
        })}
        {(names?.length ?? 0) > 20 ? <li>{t('and_more', { count: (names?.length ?? 0) - 20 })}</li> : null}
      </ul>
      <Radio.Group value={action} onChange={(e) => setAction(e.target.value as DuplicateAction)}>
        <Space orientation="vertical">
          <Radio value="skip" data-testid="duplicate-skip">
            {t('duplicate_skip')}
          </Radio>
          <Radio value="overwrite" data-testid="duplicate-overwrite">
            {t('duplicate_overwrite')}
          </Radio>
          <Radio value="keep_both" data-testid="duplicate-keep-both">
            <span data-testid="duplicate-keep-both-label">
              {t('duplicate_keep_both', { example: copyExample(names?.[0] ?? 'photo.jpg') })}
            </span>
          </Radio>
        </Space>
      </Radio.Group>
    </Modal>
  );
}
