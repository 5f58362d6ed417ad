import { imageSchema, metadataParseResponseSchema, type MetadataParseResponse } from '@cassavascope/contract';
import { apiRequest } from '../../../lib/api-client';

/**
 * Sets (a value) or removes (null) sample fields of each image, one `PATCH /images/{id}/` per image, in turn;
 * `onProgress` gets how many are done. Stops at the first refusal (the images before it keep their change).
 */
export async function editImageFields(
  ids: number[],
  metadata: Record<string, string | number | null>,
  onProgress: (done: number) => void,
): Promise<void> {
  let done = 0;
  for (const id of ids) {
    await apiRequest(`/images/${id}/`, { method: 'PATCH', body: { metadata }, schema: imageSchema });
    done += 1;
    onProgress(done);
  }
}

/** Stores the fields a file-name pattern reads from these images' names (`POST /images/metadata/parse/`, apply). */
export function applyNamePattern(pattern: string, imageIds: number[]): Promise<MetadataParseResponse> {
  return apiRequest<MetadataParseResponse>('/images/metadata/parse/', {
    method: 'POST',
    body: { pattern, image_ids: imageIds, apply: true },
    timeoutMs: 60_000,
    schema: metadataParseResponseSchema,
  });
}
