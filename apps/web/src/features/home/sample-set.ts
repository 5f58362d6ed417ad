import { uploadResponseSchema } from '@cassavascope/contract';
import { uploadWithProgress } from '../../lib/api-client';
import { createFolder, fetchAllFolders } from '../../lib/folders-api';

export const SAMPLE_COUNT = 8;

/** A small deterministic random sequence (the same sample set on every machine). */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * One generated specimen photo: three cassava root slices (cream flesh in a brown peel ring) on a dark board,
 * with a share of discoloured flesh that differs per photo, so a task over the set gives a spread of PPD values.
 * The same picture as the server tests' specimens (apps/server/test/helpers/specimens.ts), drawn on a canvas.
 */
export async function drawSamplePhoto(index: number, width = 960, height = 640): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('no 2d canvas');
  const rnd = random(index * 7919 + 17);
  g.fillStyle = '#1f2a36';
  g.fillRect(0, 0, width, height);
  const share = ((index * 37) % 70) / 100 + 0.03;
  const r = Math.round(Math.min(width / 10, height / 3.2));
  const cy = Math.round(height / 2);
  for (let i = 0; i < 3; i++) {
    const cx = Math.round((width / 4) * (i + 1));
    g.fillStyle = '#7a5230';
    g.beginPath();
    g.arc(cx, cy, r, 0, 2 * Math.PI);
    g.fill();
    const inner = r * 0.9;
    g.fillStyle = '#efe4c4';
    g.beginPath();
    g.arc(cx, cy, inner, 0, 2 * Math.PI);
    g.fill();
    // Discoloured flesh: a sector of the slice, turned a little differently on each slice.
    const start = rnd() * 2 * Math.PI;
    const sliceShare = Math.min(0.9, Math.max(0.02, share * (0.7 + rnd() * 0.6)));
    g.fillStyle = '#3a2a22';
    g.beginPath();
    g.moveTo(cx, cy);
    g.arc(cx, cy, inner, start, start + sliceShare * 2 * Math.PI);
    g.closePath();
    g.fill();
  }
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no JPEG'))), 'image/jpeg', 0.9),
  );
}

/** The id of the sample folder (named in the UI's language), created when missing. */
async function sampleFolderId(name: string, description: string): Promise<number> {
  const existing = (await fetchAllFolders()).find((f) => f.name.toLowerCase() === name.toLowerCase());
  if (existing) return existing.id;
  return (await createFolder({ name, description })).id;
}

/**
 * Loads the sample set: SAMPLE_COUNT generated specimen photos into the sample folder (created when missing).
 * Photos already there are skipped (same bytes), so pressing the button twice does not double the set.
 * Returns the folder id.
 */
export async function loadSampleSet(
  folder: { name: string; description: string },
  onProgress: (percent: number) => void = () => undefined,
): Promise<number> {
  const folderId = await sampleFolderId(folder.name, folder.description);
  const form = new FormData();
  form.set('folder_id', String(folderId));
  form.set('check_duplicate', '1');
  form.set('duplicate_action', 'skip');
  for (let i = 1; i <= SAMPLE_COUNT; i++) form.append('files', await drawSamplePhoto(i), `sample_slice_${i}.jpg`);
  await uploadWithProgress('/images/upload-files/', form, onProgress, undefined, uploadResponseSchema);
  return folderId;
}
