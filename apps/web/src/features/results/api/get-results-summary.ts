import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  HISTOGRAM_BINS,
  predictionSummarySchema,
  type HistogramKey,
  type PredictionSummary,
} from '@cassavascope/contract';
import { api } from '../../../lib/api-client';
import { pickNumber } from '../../../lib/normalize-fields';
import { resultFilterQuery, type ResultFilter } from './get-results-page';

export interface ResultsSummary {
  count: number;
  average: number | null;
  max: number | null;
  min: number | null;
  bands: { healthy: number; mild: number; severe: number };
  histogram: Record<HistogramKey, number>;
}

function normalizeSummary(raw: Partial<PredictionSummary> | null): ResultsSummary {
  const r = (raw ?? {}) as Record<string, unknown>;
  const bands = (raw?.bands ?? {}) as Record<string, unknown>;
  const histogram = (raw?.histogram ?? {}) as Record<string, unknown>;
  return {
    count: pickNumber(r, 'count') ?? 0,
    average: pickNumber(r, 'average'),
    max: pickNumber(r, 'max'),
    min: pickNumber(r, 'min'),
    bands: {
      healthy: pickNumber(bands, 'healthy') ?? 0,
      mild: pickNumber(bands, 'mild') ?? 0,
      severe: pickNumber(bands, 'severe') ?? 0,
    },
    histogram: Object.fromEntries(
      HISTOGRAM_BINS.map((bin) => [bin.key, pickNumber(histogram, bin.key) ?? 0]),
    ) as Record<HistogramKey, number>,
  };
}

export async function getResultsSummary(filter: ResultFilter, signal?: AbortSignal): Promise<ResultsSummary> {
  return normalizeSummary(
    await api.get<Partial<PredictionSummary>>(
      '/predictions/summary/',
      resultFilterQuery(filter),
      signal,
      predictionSummarySchema,
    ),
  );
}

/**
 * Figures over the scored results the filters select (task, search, severity, review, sample fields, a group),
 * so the cards describe the list on screen: computed by the server, never from a loaded page.
 */
export function useResultsSummary(filter: ResultFilter) {
  return useQuery({
    queryKey: ['results', 'summary', filter],
    queryFn: ({ signal }) => getResultsSummary(filter, signal),
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
  });
}
