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
