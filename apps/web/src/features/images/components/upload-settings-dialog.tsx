import { FileExcelOutlined } from '@ant-design/icons';
import { App, Form, Input, Modal, Select, Switch, Typography, Upload, type ButtonProps } from 'antd';
import { compileNamePattern } from '@cassavascope/contract';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FolderItem } from '../../../lib/normalize-folder';
import { isSheetFile } from '../../../lib/sheet-api';
import type { UploadSettings } from '../hooks/use-upload';
import { InlineFolderCreate } from './inline-folder-create';
import './upload-sheet.css';

export type UploadMode = 'single' | 'multiple' | 'zip';

interface Props {
  mode: UploadMode | null;
  folders: FolderItem[];
  defaultFolderId: number | null;
  onCancel: () => void;
  onFiles: (files: File[], settings: UploadSettings, mode: UploadMode) => void;
}

/** The field-book sheet's types: CSV or Excel. */
const SHEET_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Spec section 5: image/* and .zip names; the ZIP picker takes only the first ZIP. Many files may include the
 * upload's sheet (one picker for photos and field book); the other modes take it from the sheet picker.
 */
const ACCEPT: Record<UploadMode, string> = {
  single: 'image/*',
  multiple: `image/*,.zip,${SHEET_ACCEPT}`,
  zip: '.zip,application/zip',
};

/** A drag over the sheet's own drop area is for the sheet picker, not the upload. */
const overSheetPicker = (e: DragEvent<HTMLElement>) =>
  e.target instanceof Element && e.target.closest('.upload-sheet-picker') !== null;

/**
 * Upload settings: target folder (with inline create) and the duplicate check (on by default). Its button opens
 * the file picker; the chosen files start the upload, and so do files dropped on the dialog (photos, a ZIP and
 * the sheet together).
 */
export function UploadSettingsDialog({ mode, folders, defaultFolderId, onCancel, onFiles }: Props) {
  const { t } = useTranslation('images');
  const { message } = App.useApp();
  const [folderId, setFolderId] = useState<number | null>(defaultFolderId);
  const [checkDuplicate, setCheckDuplicate] = useState(true);
  // Optional: read sample fields from the names as they arrive (the Samples screen previews a pattern on a folder).
  const [pattern, setPattern] = useState('');
  // Optional: a field book (file name -> fields) applied to the photos of this upload once they are in.
  const [sheet, setSheet] = useState<File | null>(null);
  const patternBad = pattern.trim() !== '' && !compileNamePattern(pattern.trim()).ok;
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const take = (files: File[]) => {
    if (mode && files.length > 0 && !patternBad)
      onFiles(files, { folderId, checkDuplicate, pattern: pattern.trim(), sheet }, mode);
  };

  useEffect(() => {
    if (mode) {
      setFolderId(defaultFolderId);
      setCheckDuplicate(true);
      setPattern('');
      setSheet(null);
    }
  }, [mode, defaultFolderId]);

  return (
    <Modal
      open={mode !== null}
      title={t(`upload_title.${mode ?? 'single'}`)}
      okText={t('choose_files')}
      cancelText={t('cancel')}
      onCancel={onCancel}
      onOk={() => input.current?.click()}
      okButtonProps={{ 'data-testid': 'choose-files', disabled: patternBad } as ButtonProps}
      destroyOnHidden
    >
      <div
        className={`upload-settings-drop${dragging ? ' is-dragging' : ''}`}
        data-testid="upload-drop"
        onDragOver={(e) => {
          if (overSheetPicker(e)) return;
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={(e) => {
          setDragging(false);
          if (overSheetPicker(e)) return;
          e.preventDefault();
          take(Array.from(e.dataTransfer.files));
        }}
      >
        <Form layout="vertical">
          <Form.Item label={t('target_folder')}>
            <Select
              allowClear
              value={folderId ?? undefined}
              placeholder={t('uncategorized')}
              onChange={(v?: number) => setFolderId(v ?? null)}
              options={folders.map((f) => ({ value: f.id, label: f.name }))}
              data-testid="upload-folder-select"
            />
          </Form.Item>
          <Form.Item>
            <InlineFolderCreate onCreated={(f) => setFolderId(f.id)} />
          </Form.Item>
          <Form.Item label={t('check_duplicates')} extra={t('check_duplicates_hint')}>
            <Switch checked={checkDuplicate} onChange={setCheckDuplicate} data-testid="duplicate-switch" />
          </Form.Item>
          <Form.Item
            label={t('name_pattern')}
            extra={patternBad ? undefined : t('name_pattern_hint')}
            validateStatus={patternBad ? 'error' : undefined}
            help={patternBad ? t('name_pattern_invalid') : undefined}
          >
            <Input
              value={pattern}
              onChange={(e) => setPattern(e.target.value)}
              placeholder="{genotype}_{rep}_{dah}d_{root}"
              spellCheck={false}
              data-testid="upload-pattern"
            />
          </Form.Item>
          <Form.Item label={t('sample_sheet')} extra={t('sample_sheet_hint')}>
            <div data-testid="upload-sheet-picker">
              <Upload.Dragger
                accept={SHEET_ACCEPT}
                maxCount={1}
                fileList={sheet ? [{ uid: 'sheet', name: sheet.name, status: 'done' }] : []}
                beforeUpload={(file) => {
                  if (isSheetFile(file)) setSheet(file);
                  else message.warning(t('sample_sheet_wrong_type', { name: file.name }));
                  return false;
                }}
                onRemove={() => setSheet(null)}
                className="upload-sheet-picker"
              >
                <span className="upload-sheet-drop">
                  <FileExcelOutlined /> {t('sample_sheet_drop')}
                </span>
              </Upload.Dragger>
            </div>
          </Form.Item>
          <Typography.Text type="secondary">
            {t(`upload_hint.${mode ?? 'single'}`)} {t('drop_hint')}
          </Typography.Text>
        </Form>
      </div>
      {mode ? (
        <input
          ref={input}
          type="file"
          hidden
          data-testid="upload-input"
          accept={ACCEPT[mode]}
          multiple={mode === 'multiple'}
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            take(files);
          }}
        />
      ) : null}
    </Modal>
  );
}
