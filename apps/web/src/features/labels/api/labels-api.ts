import { imageLabelsSchema, type ImageLabels } from '@cassavascope/contract';
import { apiUrl, checkResponse, errorFromResponse } from '../../../lib/api-client';

/**
 * The label calls of api.md ("Labels and lab models"). The label image travels as a PNG, so these use fetch
 * directly (the JSON client reads text); errors still become ApiError with the server's code, and the PUT's
 * answer is checked against the contract as every other answer.
 */
const CONTRACT_HEADER = 'X-CassavaScope-Contract';

export type SavedLabels = ImageLabels;

async function fail(res: Response): Promise<never> {
  throw errorFromResponse(res.status, await res.text(), res.headers.get(CONTRACT_HEADER) !== null);
}

/** The image's label PNG, or null when it has none (404). */
export async function fetchLabels(imageId: number, signal?: AbortSignal): Promise<Blob | null> {
  const res = await fetch(apiUrl(`/images/${imageId}/labels/`), { signal, cache: 'no-store' });
  if (res.status === 404) return null;
  if (!res.ok) return fail(res);
  return res.blob();
}

/** The default engine's per-pixel classes for the photo, as a label PNG. */
export async function fetchProposal(imageId: number, signal?: AbortSignal): Promise<Blob> {
  const res = await fetch(apiUrl(`/images/${imageId}/labels/proposal/`), { signal });
  if (!res.ok) return fail(res);
  return res.blob();
}

export async function saveLabels(imageId: number, png: Blob): Promise<SavedLabels> {
  const form = new FormData();
  form.append('file', png, `labels-${imageId}.png`);
  const res = await fetch(apiUrl(`/images/${imageId}/labels/`), {
    method: 'PUT',
    body: form,
    headers: { Accept: 'application/json' },
  });
  if (!res.ok) return fail(res);
  const ours = res.headers.get(CONTRACT_HEADER) !== null;
  return checkResponse(imageLabelsSchema, await res.json(), ours, `PUT /images/${imageId}/labels/`) as SavedLabels;
}

export async function deleteLabels(imageId: number): Promise<void> {
  const res = await fetch(apiUrl(`/images/${imageId}/labels/`), { method: 'DELETE' });
  if (!res.ok && res.status !== 404) return fail(res);
}
