import type { FastifyRequest } from 'fastify';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, type ListEnvelope } from '@cassavascope/contract';
import { z } from 'zod';
import { parseInput } from './validation.js';

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

/** Exported for the OpenAPI document (list routes declare it as their query). */
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

/** The last value of a query parameter given once or repeated (`?a=1&a=2` -> "2"), like Django does. */
export function lastValue(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** Query parameters as single strings (repeated ones keep their last value). */
export function flatQuery(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (query && typeof query === 'object') {
    for (const [k, v] of Object.entries(query)) {
      const last = lastValue(v);
      if (typeof last === 'string') out[k] = last;
    }
  }
  return out;
}

export function parsePaging(query: Record<string, string>): Paging {
  const { page = 1, page_size = PAGE_SIZE_DEFAULT } = parseInput(
    pagingQuerySchema,
    { page: query.page, page_size: query.page_size },
    'query',
  );
  const pageSize = Math.min(page_size, PAGE_SIZE_MAX);
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
