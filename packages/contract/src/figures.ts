import { z } from 'zod';

/**
 * `GET /figures/` (an addition, issue 25): the library's own figures, for the home page's statistics block. A
 * photo is one observation: scored and specimen figures count each photo once, by its newest scored result.
 */
export const libraryFiguresSchema = z.object({
  photos: z.number().int().min(0).meta({ description: 'photos in the library' }),
  photos_scored: z.number().int().min(0).meta({ description: 'photos with a scored result' }),
  specimens_scored: z
    .number()
    .int()
    .min(0)
    .meta({ description: "specimens counted in each photo's newest scored result (excluded ones left out)" }),
  photos_reviewed: z.number().int().min(0).meta({ description: 'photos with a result a reviewer changed' }),
  researchers: z
    .number()
    .int()
    .min(0)
    .meta({ description: 'user accounts with sign-in on; 1 with sign-in off (one researcher on one machine)' }),
});
export type LibraryFigures = z.infer<typeof libraryFiguresSchema>;
