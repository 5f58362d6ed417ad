import { severityOf, type Severity } from '@cassavascope/contract';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Bands from the most severe down: the order a headline names them in. */
const BANDS_DOWN: Severity[] = ['severe', 'mild', 'healthy'];

export interface HealthHeadline {
  /** the band the headline is drawn in (icon and colour); null: not assessed */
  band: Severity | null;
  title: string;
  description: string;
}

/** How many of these specimen values fall in each band. */
export function bandCounts(values: number[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { healthy: 0, mild: 0, severe: 0 };
  for (const v of values) counts[severityOf(v)] += 1;
  return counts;
}

/**
 * The result detail's health headline (results.json `assessment.*`). A photo of one specimen reads as its band
 * ("Healthy"). A photo of several says how many specimens are in each band ("3 specimens: 2 mild, 1 healthy"),
 * drawn in the worst of them, and that the photo's PPD is their mean with the mean's band: a tray of slices at
 * 4.34 and 4.00 beside a healthy one no longer reads "Healthy - the specimen looks healthy".
 * `values`: the PPD of each specimen that counts (not excluded), as `sub_ppd_values`.
 */
export function healthHeadline(t: Translate, ppd: number | null, values: number[]): HealthHeadline {
  if (ppd === null)
    return { band: null, title: t('assessment.unknown'), description: t('assessment.unknown_description') };
  const band = severityOf(ppd);
  if (values.length < 2)
    return { band, title: t(`assessment.${band}`), description: t(`assessment.${band}_description`) };
  const counts = bandCounts(values);
  const parts = BANDS_DOWN.filter((b) => counts[b] > 0).map((b) => t(`assessment.count_${b}`, { count: counts[b] }));
  return {
    band: BANDS_DOWN.find((b) => counts[b] > 0) ?? band,
    title: t('assessment.specimens', { count: values.length, bands: parts.join(t('assessment.separator')) }),
    description: t(`assessment.mean_${band}`, { ppd: ppd.toFixed(2), count: values.length }),
  };
}
