import type { FastifyRequest } from 'fastify';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, type ListEnvelope } from '@cassavascope/contract';
import { z } from 'zod';

/**
 * `page` (1-based) and `page_size` (default 50, larger than 1000 is clamped) of every list endpoint.
 * Malformed values (`page=abc`, `page=0`, `page_size=-1`) are a 400 about that field.
 */
const positiveInt = (field: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${field} must be a positive integer`)
    .transform(Number)
    .refine((n) => n >= 1, `${field} must be a positive integer`);

/** Any positive page_size is accepted and clamped later, however many digits it has. */
const pageSize = z
  .string()
  .regex(/^\d+$/, 'page_size must be a positive integer')
  .transform((s) => Math.min(Number(s), PAGE_SIZE_MAX))
  .refine((n) => n >= 1, 'page_size must be a positive integer');

/** List routes declare it as (part of) their `querystring`. */
export const pagingQuerySchema = z.object({
  page: positiveInt('page').meta({ description: '1-based page number (default 1)' }).optional(),
  page_size: pageSize
    .meta({ description: `items per page (default ${PAGE_SIZE_DEFAULT}; larger than ${PAGE_SIZE_MAX} is clamped)` })
    .optional(),
});

export interface Paging {
  page: number;
  pageSize: number;
  offset: number;
}

/** The paging of a list route's validated query (`pagingQuerySchema` is part of its `querystring`). */
export function parsePaging(query: { page?: number | undefined; page_size?: number | undefined }): Paging {
  const page = query.page ?? 1;
  const pageSize = Math.min(query.page_size ?? PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/**
 * The list envelope. `next`/`previous` are absolute URLs of the same request with another `page`
 * (every other query parameter kept), null at either end. A page past the end is an empty page.
 */
export function listEnvelope<T>(req: FastifyRequest, paging: Paging, count: number, results: T[]): ListEnvelope<T> {
  const lastPage = Math.max(1, Math.ceil(count / paging.pageSize));
  const link = (page: number) => {
    const url = new URL(req.url, `${req.protocol}://${req.host}`);
    if (page === 1) url.searchParams.delete('page');
    else url.searchParams.set('page', String(page));
    return url.toString();
  };
  return {
    count,
    next: paging.page < lastPage ? link(paging.page + 1) : null,
    previous: paging.page > 1 ? link(Math.min(paging.page - 1, lastPage)) : null,
    results,
  };
}
