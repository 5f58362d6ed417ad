/** An error that becomes a JSON body `{code, detail, ...extra}` with the given HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, fields?: Record<string, string>) =>
  new ApiError(400, 'invalid', detail, fields ? { fields } : {});
export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`);
export const unknownIds = (ids: number[]) =>
  new ApiError(400, 'unknown_ids', `Unknown ids: ${ids.join(', ')}`, { ids });

/** A selection's image and folder ids that do not exist, as one 400 naming each field; null when all exist. */
export function unknownSelectionIds(missingImages: number[], missingFolders: number[]): ApiError | null {
  if (missingImages.length === 0 && missingFolders.length === 0) return null;
  const ids = [...missingImages, ...missingFolders];
  return new ApiError(400, 'unknown_ids', `Unknown ids: ${ids.join(', ')}`, {
    ids,
    fields: {
      ...(missingImages.length ? { image_ids: `unknown image ids: ${missingImages.join(', ')}` } : {}),
      ...(missingFolders.length ? { folder_ids: `unknown folder ids: ${missingFolders.join(', ')}` } : {}),
    },
  });
}
