import { imageListSchema, taskListSchema, taskSchema, uploadResponseSchema } from '@cassavascope/contract';
import { api, uploadWithProgress } from '../../lib/api-client';
import { createFolder, fetchAllFolders } from '../../lib/folders-api';
import { sendSheet } from '../../lib/sheet-api';
import healthyLeaf1 from './sample-photos/cropsurv_white_healthy_1.jpg';
import healthyLeaf2 from './sample-photos/cropsurv_white_healthy_2.jpg';
import mosaicLeaf1 from './sample-photos/cropsurv_white_mosaic_1.jpg';
import mosaicLeaf3 from './sample-photos/cropsurv_white_mosaic_3.jpg';

/**
 * The sample set (issue 25 item 7): enough to see the whole product in a minute. Generated root slices (three
 * genotypes, two reps each, each genotype a different share of discoloured flesh) beside four real detached
 * cassava leaflets (CC BY 3.0, Mobile Crop Surveillance project, Makerere University: sample-photos/CREDITS.md),
 * every photo with its genotype and rep, and one task already run over them, so Results and "By group" show
 * something.
 */
export interface SamplePhoto {
  name: string;
  genotype: string;
  rep: number;
  /** a generated slice photo: the share of discoloured flesh; a real leaf: its bundled file */
  source: { share: number } | { url: string };
}

export const SAMPLE_PHOTOS: SamplePhoto[] = [
  { name: 'TME419_R1_slices.jpg', genotype: 'TME419', rep: 1, source: { share: 0.04 } },
  { name: 'TME419_R2_slices.jpg', genotype: 'TME419', rep: 2, source: { share: 0.08 } },
  { name: 'NASE14_R1_slices.jpg', genotype: 'NASE14', rep: 1, source: { share: 0.3 } },
  { name: 'NASE14_R2_slices.jpg', genotype: 'NASE14', rep: 2, source: { share: 0.38 } },
  { name: 'TMS30572_R1_slices.jpg', genotype: 'TMS30572', rep: 1, source: { share: 0.62 } },
  { name: 'TMS30572_R2_slices.jpg', genotype: 'TMS30572', rep: 2, source: { share: 0.7 } },
  { name: 'TME419_R1_leaf.jpg', genotype: 'TME419', rep: 1, source: { url: healthyLeaf1 } },
  { name: 'TME419_R2_leaf.jpg', genotype: 'TME419', rep: 2, source: { url: healthyLeaf2 } },
  { name: 'NASE14_R1_leaf.jpg', genotype: 'NASE14', rep: 1, source: { url: mosaicLeaf1 } },
  { name: 'NASE14_R2_leaf.jpg', genotype: 'NASE14', rep: 2, source: { url: mosaicLeaf3 } },
];

export const SAMPLE_COUNT = SAMPLE_PHOTOS.length;
export const SAMPLE_LEAVES = SAMPLE_PHOTOS.filter((p) => 'url' in p.source).length;

/** How long the button waits for the sample task before handing over (it goes on scoring in the background). */
const TASK_WAIT_MS = 180_000;
const TASK_POLL_MS = 1000;

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
 * about `share` of each slice's flesh discoloured (a little more or less per slice), so a task over the set gives a
 * spread of PPD values. The same picture as the server tests' specimens (apps/server/test/helpers/specimens.ts),
 * drawn on a canvas.
 */
export async function drawSamplePhoto(index: number, share: number, width = 960, height = 640): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('no 2d canvas');
  const rnd = random(index * 7919 + 17);
  g.fillStyle = '#1f2a36';
  g.fillRect(0, 0, width, height);
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
    const sliceShare = Math.min(0.9, Math.max(0.02, share * (0.8 + rnd() * 0.4)));
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

async function photoBlob(photo: SamplePhoto, index: number): Promise<Blob> {
  if ('share' in photo.source) return drawSamplePhoto(index + 1, photo.source.share);
  const res = await fetch(photo.source.url);
  if (!res.ok) throw new Error(`sample photo ${photo.name}: HTTP ${res.status}`);
  return res.blob();
}

/**
 * The id of the sample folder: one already there under its name in any of the app's languages (so switching the
 * language does not load a second copy), else a new one named in the UI's language.
 */
async function sampleFolder(names: string[], description: string): Promise<{ id: number; name: string }> {
  const lower = names.map((n) => n.toLowerCase());
  const all = await fetchAllFolders();
  const existing = lower.map((n) => all.find((f) => f.name.toLowerCase() === n)).find((f) => f !== undefined);
  const folder = existing ?? (await createFolder({ name: names[0]!, description }));
  return { id: folder.id, name: folder.name };
}

/** The sample photos the folder holds, by name. */
async function folderImages(folderId: number): Promise<Map<string, number>> {
  const listing = imageListSchema.parse(
    await api.get('/images/', { folder: folderId, page_size: 100 }, undefined, imageListSchema),
  );
  const wanted = new Set(SAMPLE_PHOTOS.map((p) => p.name));
  return new Map(listing.results.filter((i) => wanted.has(i.name)).map((i) => [i.name, i.id]));
}

/** The sample's genotype and rep per photo, as a field-book sheet (`name,genotype,rep`). */
export function sampleSheet(): File {
  const rows = SAMPLE_PHOTOS.map((p) => `${p.name},${p.genotype},${p.rep}`);
  return new File([['name,genotype,rep', ...rows].join('\r\n') + '\r\n'], 'sample-fields.csv', { type: 'text/csv' });
}

export interface SampleSetText {
  /** the sample folder's name in the UI's language, then in the app's other languages */
  folders: string[];
  description: string;
  /** the sample task's name in the UI's language, then in the other languages */
  tasks: string[];
}

export interface SampleSetResult {
  folderId: number;
  /** the folder's name and the task's (those of an earlier press, maybe in another language) */
  folderName: string;
  taskName: string;
  taskId: number;
  /** the task finished while the button waited (else it is still scoring) */
  scored: boolean;
}

type Progress = (step: 'upload' | 'fields' | 'scoring', percent: number) => void;
type TaskLike = ReturnType<typeof taskSchema.parse>;

/**
 * Loads the sample set: the photos the sample folder lacks into it (created when missing; pressing twice, or again
 * in another language, doubles nothing), their genotype and rep from a sheet, and one task over them (reused when a
 * task of the sample's name already scored or is scoring them), waited for up to TASK_WAIT_MS.
 */
export async function loadSampleSet(
  text: SampleSetText,
  onProgress: Progress = () => undefined,
): Promise<SampleSetResult> {
  const folder = await sampleFolder(text.folders, text.description);
  const folderId = folder.id;
  // Only what the folder lacks goes up: the same bytes elsewhere in the library (a photo of the user's own, say)
  // do not keep a sample photo out of its folder.
  const present = await folderImages(folderId);
  const missing = SAMPLE_PHOTOS.map((p, i) => ({ p, i })).filter(({ p }) => !present.has(p.name));
  if (missing.length > 0) {
    const form = new FormData();
    form.set('folder_id', String(folderId));
    form.set('check_duplicate', '0');
    const blobs = await Promise.all(missing.map(({ p, i }) => photoBlob(p, i)));
    missing.forEach(({ p }, k) => form.append('files', blobs[k]!, p.name));
    await uploadWithProgress(
      '/images/upload-files/',
      form,
      (pct) => onProgress('upload', pct),
      undefined,
      uploadResponseSchema,
    );
  }
  const imageIds = [...(await folderImages(folderId)).values()];

  onProgress('fields', 0);
  await sendSheet(sampleSheet(), { imageIds });

  onProgress('scoring', 0);
  let reusable: TaskLike | undefined;
  for (const name of text.tasks) {
    const found = taskListSchema.parse(
      await api.get('/tasks/', { search: name, page_size: 20 }, undefined, taskListSchema),
    );
    reusable ??= found.results.find(
      (t) =>
        t.name === name &&
        (t.status === 'completed' || t.status === 'running') &&
        imageIds.every((id) => t.image_ids.includes(id)),
    );
  }
  const task =
    reusable ??
    taskSchema.parse(await api.post('/tasks/prediction/', { name: text.tasks[0], image_ids: imageIds }, taskSchema));
  const deadline = Date.now() + TASK_WAIT_MS;
  let current = task;
  while (current.status === 'running' && Date.now() < deadline) {
    onProgress('scoring', current.progress ?? 0);
    await new Promise((r) => setTimeout(r, TASK_POLL_MS));
    current = taskSchema.parse(await api.get(`/tasks/${task.id}/`, undefined, undefined, taskSchema));
  }
  return {
    folderId,
    folderName: folder.name,
    taskId: task.id,
    taskName: task.name,
    scored: current.status !== 'running',
  };
}
