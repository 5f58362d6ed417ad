import { FileExcelOutlined } from '@ant-design/icons';
import { App, Form, Input, Modal, Select, Switch, Typography, Upload, type ButtonProps } from 'antd';
import { compileNamePattern, fitName } from '@cassavascope/contract';
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NameFitList, PatternSuggestion } from '../../../lib/name-fit-report';
import type { FolderItem } from '../../../lib/normalize-folder';
import { isSheetFile } from '../../../lib/sheet-api';
import { isZipFile, type UploadSettings } from '../hooks/use-upload';
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

/** The names a pattern reads before anything is sent: the photos' (a ZIP's names are read once it is stored). */
const photoNames = (files: readonly File[]) => files.filter((f) => !isSheetFile(f) && !isZipFile(f)).map((f) => f.name);

/** A drag over the sheet's own drop area is for the sheet picker, not the upload. */
const overSheetPicker = (e: DragEvent<HTMLElement>) =>
  e.target instanceof Element && e.target.closest('.upload-sheet-picker') !== null;

/**
 * Upload settings: target folder (with inline create) and the duplicate check (on by default). Its button opens
 * the file picker; the chosen files start the upload, and so do files dropped on the dialog (photos, a ZIP and
 * the sheet together). With a file-name pattern, photos whose names do not all fit it are held in the dialog:
 * each such name is listed with why, the list follows the pattern as it is edited, a pattern read from the names
 * is offered, and the upload starts when the researcher says so (issue 25 item 5).
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
  const trimmed = pattern.trim();
  const compiled = useMemo(() => (trimmed === '' ? null : compileNamePattern(trimmed)), [trimmed]);
  const patternBad = compiled !== null && !compiled.ok;
  // Files chosen while some of their names do not fit the pattern: sent once the researcher confirms.
  const [held, setHeld] = useState<File[] | null>(null);
  const heldNames = useMemo(() => (held ? photoNames(held) : []), [held]);
  const heldFits = useMemo(
    () => (compiled?.ok ? heldNames.map((name) => ({ name, fit: fitName(compiled, name) })) : []),
    [compiled, heldNames],
  );
  const unfit = heldFits.flatMap((f, i) => (f.fit.ok ? [] : [{ key: i, name: f.name, mismatch: f.fit.mismatch }]));
  const input = useRef<HTMLInputElement>(null);
  const preview = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  // Held photos: their names come into view (on a phone they are below the dialog's first screen). Only the
  // dialog scrolls: scrollIntoView would scroll the page under it too.
  useEffect(() => {
    const el = preview.current;
    const wrap = el?.closest('.ant-modal-wrap');
    if (!held || !el || !wrap) return;
    const top = el.getBoundingClientRect().top;
    if (top > window.innerHeight * 0.6) wrap.scrollTop += top - window.innerHeight * 0.3;
  }, [held]);

  const send = (files: File[]) => {
    if (mode && files.length > 0 && !patternBad)
      onFiles(files, { folderId, checkDuplicate, pattern: trimmed, sheet }, mode);
  };
  const take = (files: File[]) => {
    if (!mode || files.length === 0 || patternBad) return;
    if (compiled?.ok && photoNames(files).some((name) => !fitName(compiled, name).ok)) setHeld(files);
    else send(files);
  };

  useEffect(() => {
    if (mode) {
      setFolderId(defaultFolderId);
      setCheckDuplicate(true);
      setPattern('');
      setSheet(null);
      setHeld(null);
    }
  }, [mode, defaultFolderId]);

  return (
    <Modal
      open={mode !== null}
      title={t(`upload_title.${mode ?? 'single'}`)}
      okText={held ? t('upload_held', { count: held.length }) : t('choose_files')}
      cancelText={t('cancel')}
      onCancel={onCancel}
      onOk={() => (held ? send(held) : input.current?.click())}
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
          {held && compiled?.ok ? (
            <div className="upload-name-preview" data-testid="upload-name-preview" ref={preview}>
              <Typography.Text strong data-testid="upload-names-fit">
                {t('names_fit', { fits: heldNames.length - unfit.length, total: heldNames.length })}
              </Typography.Text>
              {unfit.length > 0 ? <NameFitList items={unfit} /> : null}
              <PatternSuggestion
                names={heldNames}
                pattern={trimmed}
                fitting={heldNames.length - unfit.length}
                onUse={setPattern}
              />
            </div>
          ) : null}
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
