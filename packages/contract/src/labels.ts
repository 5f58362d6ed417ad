import { z } from 'zod';

/**
 * Labels (api.md "Labels and lab models"): what `PUT /images/{id}/labels/` answers. The label image itself is a
 * PNG (one value a pixel: 0 unlabelled, 1 background, 2 healthy tissue, 3 discoloured tissue, 4 not scored).
 */

const pixels = z.number().int().min(0);

/** Labelled pixels per class, at the photo's size as shown. */
export const labelCountsSchema = z.object({
  background: pixels,
  healthy: pixels,
  lesion: pixels.meta({ description: 'discoloured tissue (PPD streaking, necrosis, chlorosis, rot)' }),
  excluded: pixels.meta({ description: 'not scored (peel, bark, label cards, rulers)' }),
});
export type LabelCounts = z.infer<typeof labelCountsSchema>;

export const imageLabelsSchema = z.object({
  image_id: z.number().int(),
  counts: labelCountsSchema,
  updated_time: z.string(),
  user: z
    .object({ id: z.number().int(), username: z.string() })
    .nullable()
    .meta({ description: 'who stored them; null while sign-in is off' }),
});
export type ImageLabels = z.infer<typeof imageLabelsSchema>;
