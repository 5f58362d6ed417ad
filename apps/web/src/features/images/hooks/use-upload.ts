import {
  compileNamePattern,
  fitName,
  suggestNamePattern,
  type MetadataSheetResponse,
  type UploadResponse,
} from '@cassavascope/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { createElement, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { createAutoClose } from '../../../lib/auto-close';
import { errorMessage, uploadErrorMessage } from '../../../lib/error-message';
import { invalidateLibrary } from '../../../lib/folders-api';
import { UnfitNamesNote } from '../../../lib/name-fit-report';
import { applyNamePattern } from '../api/sample-fields';
import { isSheetFile, sendSheet } from '../../../lib/sheet-api';
import {
  duplicateMatches,
  resumeUpload,
  uploadImageFiles,
  uploadZip,
  type DuplicateAction,
  type DuplicateMatch,
  type UploadOptions,
} from '../api/upload-images';

/** Spec section 3: an upload progress item. */
export interface UploadItem {
  fileName: string;
  /** bytes (0 for an entry of a ZIP: its size is inside the archive) */
  size: number;
  progress: number;
  /** `skipped`: not stored, a duplicate (its own warning look: it is not a successful upload). */
  status: 'uploading' | 'completed' | 'skipped' | 'error';
  /** an entry of a ZIP archive reported by the server (not a file the browser sent: left out of the totals) */
  entry?: boolean;
  /** Why a file failed (translated from the server's error code), or that it was skipped as a duplicate. */
  note?: string;
}

export interface UploadSettings {
  folderId: number | null;
  checkDuplicate: boolean;
  /** a file-name pattern (`{genotype}_{rep}_{dah}d_{root}`) whose fields the uploaded images get, or '' */
  pattern?: string;
  /** a field-book sheet (CSV/XLSX) chosen in the settings: applied to the images this upload stores */
  sheet?: File | null;
}

/**
 * The sheet given with an upload and what became of it (the progress dialog shows it). It waits for the photos,
 * then is applied to exactly the images this upload stored (`image_ids`), after any pattern: its values replace
 * the pattern's field by field.
 */
export interface UploadSheet {
  file: File;
  /** the images this upload stored, among which the sheet's names are looked up */
  imageIds: number[];
  state: 'waiting' | 'applying' | 'done' | 'failed' | 'no_images';
  report?: MetadataSheetResponse;
  /** why it could not be applied, translated */
  error?: string;
}

/** Spec section 9: the progress dialog closes 1 s after completion; the list reloads 1 s after a ZIP. */
export const CLOSE_DELAY_MS = 1000;
export const ZIP_RELOAD_DELAY_MS = 1000;

export function isZipFile(file: File): boolean {
  return file.name.toLowerCase().endsWith('.zip');
}

/** image/* by type; some systems report no type for TIFF/WebP, so the extension counts too. */
export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/') || /\.(jpe?g|png|webp|tiff?|gif)$/i.test(file.name);
}

/** Names for a toast: the first few, then "…". */
const TOAST_NAMES = 5;
const namesList = (names: string[]) =>
  names.slice(0, TOAST_NAMES).join(', ') + (names.length > TOAST_NAMES ? ', …' : '');

/**
 * The upload state machine: per-file progress items, the duplicate question (driven by the server's 409, and by
 * names already loaded in the target folder), the success/error toasts and the list reloads.
 */
export function useUpload(loadedNames: (folderId: number | null) => Set<string>) {
  const { t } = useTranslation('images');
  const { message, notification } = App.useApp();
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [open, setOpen] = useState(false);
  const [duplicates, setDuplicates] = useState<string[] | null>(null);
  /** how each duplicate matched and which image (from the server's 409 `matches`) */
  const [matches, setMatches] = useState<DuplicateMatch[]>([]);
  /** when the bytes being sent now started (the dialog's speed and time left) */
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const answer = useRef<((action: DuplicateAction | null) => void) | null>(null);
  const [sheet, setSheet] = useState<UploadSheet | null>(null);
  // With a sheet the dialog stays open for its report: the researcher closes it.
  const keepOpen = useRef(false);
  // After an upload that fully succeeded the dialog closes by itself; any later open or close cancels that.
  const [autoClose] = useState(() => createAutoClose(() => setOpen(false), CLOSE_DELAY_MS));
  const showDialog = useCallback(
    (show: boolean) => {
      autoClose.cancel();
      setOpen(show);
    },
    [autoClose],
  );

  const askDuplicates = (names: string[], found: DuplicateMatch[]) =>
    new Promise<DuplicateAction | null>((resolve) => {
      answer.current = resolve;
      setMatches(found);
      setDuplicates(names);
    });

  const resolveDuplicates = useCallback((action: DuplicateAction | null) => {
    setDuplicates(null);
    answer.current?.(action);
    answer.current = null;
  }, []);

  /**
   * The toasts of an answer: a green success only when something was stored (issue 15 item 8: "0 images
   * uploaded successfully" in green when every file was skipped); skipped files get their own note, and an
   * answer that stored nothing says so.
   */
  const announce = (res: UploadResponse) => {
    if (res.count > 0) message.success(t('uploaded_count', { count: res.count }));
    if (res.skipped?.length) message.info(t('skipped_count', { count: res.skipped.length }));
    if (res.count === 0 && !res.skipped?.length) message.warning(t('nothing_uploaded'));
  };

  /**
   * With a pattern: the uploaded images whose names fit it get the fields their names give (read with the
   * contract's rules, so the server's apply cannot refuse them); the names that do not fit are listed with why
   * and a pattern that fits them (issue 25 item 5: a ZIP's names are only known here). The upload stands.
   */
  const readFields = async (res: UploadResponse, settings: UploadSettings) => {
    const pattern = settings.pattern?.trim();
    const compiled = pattern ? compileNamePattern(pattern) : null;
    if (!pattern || !compiled?.ok || res.uploaded.length === 0) return;
    const fits = res.uploaded.map((image) => ({ image, fit: fitName(compiled, image.name) }));
    const fitting = fits.filter((f) => f.fit.ok).map((f) => f.image.id);
    const unfit = fits.flatMap((f) => (f.fit.ok ? [] : [{ name: f.image.name, mismatch: f.fit.mismatch }]));
    if (fitting.length > 0) {
      try {
        const read = await applyNamePattern(pattern, fitting);
        message.success(t('pattern_applied', { count: read.applied ?? 0, unmatched: unfit.length }));
        void queryClient.invalidateQueries({ queryKey: ['samples'] });
      } catch (err) {
        message.warning(t('pattern_not_applied', { reason: errorMessage(t, err) }));
      }
    }
    if (unfit.length === 0) return;
    const names = unfit.map((u) => u.name);
    const suggestion = suggestNamePattern(names, pattern);
    notification.warning({
      message: t('pattern_unfit', { count: unfit.length }),
      duration: 15,
      description: createElement(UnfitNamesNote, {
        items: unfit,
        suggestion: suggestion && suggestion.pattern !== pattern && suggestion.fits > 0 ? suggestion.pattern : null,
      }),
    });
  };

  const finish = (failed: boolean) => {
    // Failed items stay on screen until the user closes the dialog.
    if (!failed && !keepOpen.current) autoClose.schedule();
  };

  /**
   * Sends a request; on a 409 duplicate asks the user and sends again with the chosen action. The dialog lists
   * exactly the server's `duplicates` (names as sent, byte matches included): a list of our own (names already
   * loaded in the target folder) would miss byte matches and disagree with what is then skipped. The loaded
   * names only stand in when a server answers 409 without a list.
   */
  const withDuplicateRetry = async (
    send: (options: UploadOptions) => Promise<UploadResponse>,
    settings: UploadSettings,
    preDuplicates: string[],
    onResume: () => void,
  ): Promise<UploadResponse | null> => {
    const options: UploadOptions = { folderId: settings.folderId, checkDuplicate: settings.checkDuplicate };
    try {
      return await send(options);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409 && err.code === 'duplicate')) throw err;
      const listed = Array.isArray(err.body.duplicates) ? (err.body.duplicates as unknown[]).map(String) : [];
      const chosen = await askDuplicates(listed.length > 0 ? listed : preDuplicates, duplicateMatches(err.body));
      if (!chosen) return null;
      // The server kept the files (issue 15 item 11): the choice is a small request, the bytes are not sent again.
      const token = typeof err.body.upload_token === 'string' ? err.body.upload_token : null;
      if (token) {
        onResume();
        try {
          return await resumeUpload(token, chosen);
        } catch (resumeErr) {
          if (!(resumeErr instanceof ApiError && resumeErr.status === 410)) throw resumeErr;
          // Kept too long (or the server restarted): send them again with the choice.
        }
      }
      return send({ ...options, duplicateAction: chosen });
    }
  };

  const applyResponse = (res: UploadResponse, files: File[]) => {
    const skipped = new Set(res.skipped ?? []);
    const errors = new Map((res.errors ?? []).map((e) => [e.name, uploadErrorMessage(t, e.code)]));
    // The stored images come in request order: a kept copy ("Keep both") says the name it was given (only when
    // the files left for them are exactly as many, so no name is put on the wrong file).
    const stored = files.filter((f) => !errors.has(f.name) && !skipped.has(f.name)).length;
    const renamed = stored === res.uploaded.length;
    let next = 0;
    setItems(
      files.map(({ name: fileName, size }): UploadItem => {
        if (errors.has(fileName)) return { fileName, size, progress: 100, status: 'error', note: errors.get(fileName) };
        if (skipped.has(fileName))
          return { fileName, size, progress: 100, status: 'skipped', note: t('skipped_duplicate') };
        const image = res.uploaded[next++];
        return renamed && image && image.name !== fileName
          ? { fileName, size, progress: 100, status: 'completed', note: t('stored_as', { name: image.name }) }
          : { fileName, size, progress: 100, status: 'completed' };
      }),
    );
    return [...errors.keys()];
  };

  /** Sends the photos; returns the ids of the images stored. */
  const uploadImages = async (files: File[], settings: UploadSettings): Promise<number[]> => {
    const names = files.map((f) => f.name);
    const fresh = (): UploadItem[] =>
      files.map((f) => ({ fileName: f.name, size: f.size, progress: 0, status: 'uploading' }));
    setItems(fresh());
    setStartedAt(Date.now());
    showDialog(true);
    const known = loadedNames(settings.folderId);
    const pre = names.filter((n) => known.has(n));
    try {
      const res = await withDuplicateRetry(
        (options) => {
          setItems(fresh());
          setStartedAt(Date.now());
          return uploadImageFiles(files, options, (i, progress) =>
            setItems((prev) => prev.map((it, j) => (j === i && it.status === 'uploading' ? { ...it, progress } : it))),
          );
        },
        settings,
        pre,
        // Storing what the server kept: every file's bytes are there already.
        () => setItems((prev) => prev.map((it) => ({ ...it, progress: 100 }))),
      );
      if (!res) {
        showDialog(false);
        return [];
      }
      const failedNames = applyResponse(res, files);
      const failed = failedNames.length > 0;
      announce(res);
      await readFields(res, settings);
      // Which files failed and how many of how many: the dialog lists them first.
      if (failed && files.length === 1) message.error(t('upload_failed'));
      else if (failed)
        message.error(
          t('upload_some_failed', { count: failedNames.length, total: files.length, names: namesList(failedNames) }),
          8,
        );
      finish(failed);
      return res.uploaded.map((image) => image.id);
    } catch (err) {
      const note = errorMessage(t, err);
      setItems((prev) => prev.map((it) => (it.status === 'completed' ? it : { ...it, status: 'error', note })));
      message.error(t('upload_failed'));
      return [];
    } finally {
      await invalidateLibrary(queryClient);
    }
  };

  /** Sends one ZIP; returns the ids of the images stored from it. */
  const uploadArchive = async (file: File, settings: UploadSettings): Promise<number[]> => {
    const item = (progress: number): UploadItem => ({
      fileName: file.name,
      size: file.size,
      progress,
      status: 'uploading',
    });
    setItems([item(0)]);
    setStartedAt(Date.now());
    showDialog(true);
    try {
      const res = await withDuplicateRetry(
        (options) => {
          setItems([item(0)]);
          setStartedAt(Date.now());
          return uploadZip(file, options, (progress) => setItems([item(progress)]));
        },
        settings,
        [],
        () => setItems([item(100)]),
      );
      if (!res) {
        showDialog(false);
        return [];
      }
      const failedEntries = res.errors ?? [];
      setItems([
        {
          fileName: file.name,
          size: file.size,
          progress: 100,
          status: 'completed',
          note: t('zip_summary', { count: res.count, skipped: res.skipped?.length ?? 0, failed: failedEntries.length }),
        },
        ...failedEntries.map((e): UploadItem => ({
          fileName: e.name,
          size: 0,
          progress: 100,
          status: 'error',
          entry: true,
          note: uploadErrorMessage(t, e.code),
        })),
      ]);
      announce(res);
      await readFields(res, settings);
      finish(failedEntries.length > 0);
      return res.uploaded.map((image) => image.id);
    } catch (err) {
      setItems([{ fileName: file.name, size: file.size, progress: 100, status: 'error', note: errorMessage(t, err) }]);
      message.error(t('zip_failed'));
      return [];
    } finally {
      // Spec section 4: after a ZIP upload the image list reloads after 1 second.
      setTimeout(() => void invalidateLibrary(queryClient), ZIP_RELOAD_DELAY_MS);
    }
  };

  /**
   * A sheet that cannot be read is refused before any photo is sent: a dry run reads and matches it, storing
   * nothing. The refusal names the sheet and says nothing was uploaded.
   */
  const sheetReadable = async (file: File): Promise<boolean> => {
    try {
      await sendSheet(file, { dryRun: true });
      return true;
    } catch (err) {
      const why =
        err instanceof ApiError && err.status === 415
          ? t('sheet_not_a_sheet', { name: file.name })
          : err instanceof ApiError && (err.status === 400 || err.status === 413)
            ? t('sheet_unreadable', { name: file.name })
            : t('sheet_check_failed', { name: file.name, reason: errorMessage(t, err) });
      message.error(why, 10);
      return false;
    }
  };

  /** Applies the sheet to the images this upload stored; `partial` applies the good rows despite bad values. */
  const applySheet = async (file: File, imageIds: number[], partial: boolean) => {
    if (imageIds.length === 0) {
      setSheet({ file, imageIds, state: 'no_images' });
      return;
    }
    setSheet({ file, imageIds, state: 'applying' });
    try {
      const report = await sendSheet(file, { imageIds, partial });
      setSheet({ file, imageIds, state: 'done', report });
      if (report.applied > 0) {
        await invalidateLibrary(queryClient);
        void queryClient.invalidateQueries({ queryKey: ['samples'] });
      }
    } catch (err) {
      setSheet({ file, imageIds, state: 'failed', error: errorMessage(t, err) });
    }
  };

  /**
   * Images go in one request; ZIP archives picked alongside are imported after them, one by one. A CSV/XLSX
   * among the files (or chosen in the settings) is the upload's sheet: exactly one, checked before the photos
   * go up, applied to the images they became.
   */
  const start = async (picked: File[], settings: UploadSettings, mode: 'single' | 'multiple' | 'zip') => {
    const sheets = [...(settings.sheet ? [settings.sheet] : []), ...picked.filter(isSheetFile)];
    const files = picked.filter((f) => !isSheetFile(f));
    if (sheets.length > 1) {
      message.error(t('sheet_two', { count: sheets.length, names: namesList(sheets.map((f) => f.name)) }), 10);
      return;
    }
    const sheetFile = sheets[0] ?? null;
    if (sheetFile && !files.some((f) => isImageFile(f) || isZipFile(f))) {
      message.error(t('sheet_without_photos'), 10);
      return;
    }
    if (sheetFile && !(await sheetReadable(sheetFile))) return;
    keepOpen.current = sheetFile !== null;
    setSheet(sheetFile ? { file: sheetFile, imageIds: [], state: 'waiting' } : null);

    const stored: number[] = [];
    if (mode === 'zip') {
      const zip = files.find(isZipFile);
      if (zip) stored.push(...(await uploadArchive(zip, settings)));
    } else {
      const images = files.filter(isImageFile);
      const zips = files.filter(isZipFile);
      // Files that are neither are not sent: say which, rather than dropping them silently.
      const ignored = files.filter((f) => !isImageFile(f) && !isZipFile(f)).map((f) => f.name);
      if (ignored.length > 0)
        message.warning(t('ignored_files', { count: ignored.length, names: namesList(ignored) }), 6);
      if (images.length > 0)
        stored.push(...(await uploadImages(mode === 'single' ? images.slice(0, 1) : images, settings)));
      for (const zip of mode === 'single' && images.length > 0 ? [] : zips)
        stored.push(...(await uploadArchive(zip, settings)));
      if (images.length === 0 && zips.length === 0) message.error(t('no_supported_files'));
    }
    if (sheetFile) await applySheet(sheetFile, stored, false);
  };

  /** The report's offer when a bad value kept the sheet out: apply its good rows to the same images. */
  const applyGoodRows = () => {
    if (sheet?.state === 'done') void applySheet(sheet.file, sheet.imageIds, true);
  };

  return {
    items,
    startedAt,
    open,
    close: () => showDialog(false),
    duplicates,
    matches,
    resolveDuplicates,
    start,
    sheet,
    applyGoodRows,
  };
}
