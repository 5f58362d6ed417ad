import { z } from 'zod';
import type { ImageFilter, ImageOrder, ImageOrderKey } from './images.repository.js';
import { IMAGE_FORMATS } from '../names/image-formats.js';
import { nfc } from '../names/names.js';
import { metaQuerySchema, parseMetaQuery } from '../http/meta-query.js';
import { fieldNameProblem } from '@cassavascope/contract';

const ORDERINGS = ['created_time', 'name', 'size', 'folder'] as const;

/** A YYYY-MM-DD that is a real calendar day (2026-13-45 and 2026-02-30 are not). */
export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00.000Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'must be a real date YYYY-MM-DD');

/** `folder`: an id, or `none` for uncategorised images. */
export const folderFilter = z.union([
  z.literal('none').transform(() => null),
  z
    .string()
    .regex(/^\d{1,15}$/, 'must be a folder id or "none"')
    .transform(Number)
    .refine((n) => n >= 1, 'must be a folder id or "none"'),
]);

export const imageListQuerySchema = z.object({
  folder: folderFilter.meta({ description: 'a folder id, or none for uncategorised images' }).optional(),
  // NFC, as names are stored: either spelling of a name finds it.
  search: z
    .string()
    .max(500, 'must be at most 500 characters')
    .transform(nfc)
    .meta({ description: 'part of the name, case-insensitive' })
    .optional(),
  ordering: z
    .string()
    .refine((s) => (ORDERINGS as readonly string[]).includes(s.replace(/^-/, '')), {
      message: `must be one of ${ORDERINGS.join(', ')}, optionally prefixed with -`,
    })
    .meta({ description: `${ORDERINGS.join(', ')}, optionally prefixed with - (descending); default -created_time` })
    .optional(),
  format: z.enum(IMAGE_FORMATS, { message: `must be one of ${IMAGE_FORMATS.join(', ')}` }).optional(),
  day: isoDay.meta({ description: 'upload day YYYY-MM-DD (UTC)' }).optional(),
  has_ppd: z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }).optional(),
  has_labels: z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .meta({ description: 'true: images with labels; false: without' })
    .optional(),
  group_by: z
    .string()
    .superRefine((s, ctx) => {
      const problem = fieldNameProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({
      description:
        'a sample field: the listing goes group by group of its values (numbers, then text in name order, then the images without it), `ordering` inside each group',
    })
    .optional(),
});

/** The query of `GET /images/` and of a folder's images: its filters and ordering, with `meta.FIELD=VALUE`. */
export const imageListFilterSchema = imageListQuerySchema.extend(metaQuerySchema.shape);

/**
 * The filters and ordering of `GET /images/` from its validated query (empty values count as absent, as in Django
 * filters; malformed values are a 400 naming the field). `meta.FIELD=VALUE` filters by a sample field;
 * `group_by=FIELD` groups by one.
 */
export function parseImageListQuery(q: Partial<z.infer<typeof imageListFilterSchema>>): {
  filter: ImageFilter;
  order: ImageOrder;
  groupBy: string | undefined;
} {
  const ordering = q.ordering ?? '-created_time';
  return {
    filter: {
      folder: q.folder,
      search: q.search?.trim() || undefined,
      format: q.format,
      day: q.day,
      hasPpd: q.has_ppd === undefined ? undefined : q.has_ppd === 'true' || q.has_ppd === '1',
      hasLabels: q.has_labels === undefined ? undefined : q.has_labels === 'true' || q.has_labels === '1',
      meta: parseMetaQuery(q),
    },
    order: { key: ordering.replace(/^-/, '') as ImageOrderKey, desc: ordering.startsWith('-') },
    groupBy: q.group_by,
  };
}
