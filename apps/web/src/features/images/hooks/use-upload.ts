import type { UploadResponse } from '@cassavascope/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { errorMessage, uploadErrorMessage } from '../../../lib/error-message';
import { invalidateLibrary } from '../../../lib/folders-api';
import { applyNamePattern } from '../api/sample-fields';
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
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [open, setOpen] = useState(false);
  const [duplicates, setDuplicates] = useState<string[] | null>(null);
  /** how each duplicate matched and which image (from the server's 409 `matches`) */
  const [matches, setMatches] = useState<DuplicateMatch[]>([]);
  /** when the bytes being sent now started (the dialog's speed and time left) */
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const answer = useRef<((action: DuplicateAction | null) => void) | null>(null);

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

  /** With a pattern: the uploaded images get the fields their names give (a refusal is a note, the upload stands). */
  const readFields = async (res: UploadResponse, settings: UploadSettings) => {
    const pattern = settings.pattern?.trim();
    if (!pattern || res.uploaded.length === 0) return;
    try {
      const read = await applyNamePattern(
        pattern,
        res.uploaded.map((image) => image.id),
      );
      message.success(t('pattern_applied', { count: read.applied ?? 0, unmatched: read.unmatched.length }));
      void queryClient.invalidateQueries({ queryKey: ['samples'] });
    } catch {
      message.warning(t('pattern_not_applied'));
    }
  };

  const finish = (failed: boolean) => {
    // Failed items stay on screen until the user closes the dialog.
    if (!failed) setTimeout(() => setOpen(false), CLOSE_DELAY_MS);
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
    setItems(
      files.map(({ name: fileName, size }): UploadItem =>
        errors.has(fileName)
          ? { fileName, size, progress: 100, status: 'error', note: errors.get(fileName) }
          : skipped.has(fileName)
            ? { fileName, size, progress: 100, status: 'skipped', note: t('skipped_duplicate') }
            : { fileName, size, progress: 100, status: 'completed' },
      ),
    );
    return errors.size > 0;
  };

  const uploadImages = async (files: File[], settings: UploadSettings) => {
    const names = files.map((f) => f.name);
    const fresh = (): UploadItem[] =>
      files.map((f) => ({ fileName: f.name, size: f.size, progress: 0, status: 'uploading' }));
    setItems(fresh());
    setStartedAt(Date.now());
    setOpen(true);
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
        setOpen(false);
        return;
      }
      const failed = applyResponse(res, files);
      announce(res);
      await readFields(res, settings);
      if (failed) message.error(t('upload_failed'));
      finish(failed);
    } catch (err) {
      const note = errorMessage(t, err);
      setItems((prev) => prev.map((it) => (it.status === 'completed' ? it : { ...it, status: 'error', note })));
      message.error(t('upload_failed'));
    } finally {
      await invalidateLibrary(queryClient);
    }
  };

  const uploadArchive = async (file: File, settings: UploadSettings) => {
    const item = (progress: number): UploadItem => ({
      fileName: file.name,
      size: file.size,
      progress,
      status: 'uploading',
    });
    setItems([item(0)]);
    setStartedAt(Date.now());
    setOpen(true);
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
        setOpen(false);
        return;
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
    } catch (err) {
      setItems([{ fileName: file.name, size: file.size, progress: 100, status: 'error', note: errorMessage(t, err) }]);
      message.error(t('zip_failed'));
    } finally {
      // Spec section 4: after a ZIP upload the image list reloads after 1 second.
      setTimeout(() => void invalidateLibrary(queryClient), ZIP_RELOAD_DELAY_MS);
    }
  };

  /** Images go in one request; ZIP archives picked alongside are imported after them, one by one. */
  const start = async (files: File[], settings: UploadSettings, mode: 'single' | 'multiple' | 'zip') => {
    if (mode === 'zip') {
      const zip = files.find(isZipFile);
      if (zip) await uploadArchive(zip, settings);
      return;
    }
    const images = files.filter(isImageFile);
    const zips = files.filter(isZipFile);
    // Files that are neither are not sent: say which, rather than dropping them silently.
    const ignored = files.filter((f) => !isImageFile(f) && !isZipFile(f)).map((f) => f.name);
    if (ignored.length > 0)
      message.warning(t('ignored_files', { count: ignored.length, names: namesList(ignored) }), 6);
    if (images.length > 0) await uploadImages(mode === 'single' ? images.slice(0, 1) : images, settings);
    for (const zip of mode === 'single' && images.length > 0 ? [] : zips) await uploadArchive(zip, settings);
    if (images.length === 0 && zips.length === 0) message.error(t('no_supported_files'));
  };

  return { items, startedAt, open, close: () => setOpen(false), duplicates, matches, resolveDuplicates, start };
}
