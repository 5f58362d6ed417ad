import { EyeOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { resultListSchema } from '@cassavascope/contract';
import { api, listCount } from '../../../../lib/api-client';
import { formatCount } from '../../../../lib/format';
import { resultFilterQuery, type ResultFilter } from '../../api/get-results-page';
import './review.css';

/** How many results of the filter (task, search, severity) have a specimen that needs review. */
export function useNeedsReviewCount(filter: ResultFilter) {
  const base = { ...filter, needsReview: false };
  return useQuery({
    queryKey: ['results', 'review-count', base],
    queryFn: async ({ signal }) =>
      listCount(
        await api.get(
          '/predictions/',
          { ...resultFilterQuery(base), needs_review: 'true', page_size: 1 },
          signal,
          resultListSchema,
        ),
      ),
    staleTime: 10_000,
  });
}

interface Props {
  filter: ResultFilter;
  onFilterChange: (filter: ResultFilter) => void;
}

/** The Results screen's "needs review" filter, with its count: on, the list holds only results a person should look at. */
export function NeedsReviewFilter({ filter, onFilterChange }: Props) {
  const { t } = useTranslation('review');
  const count = useNeedsReviewCount(filter);
  const on = filter.needsReview === true;
  const n = count.data ?? null;
  return (
    <Button
      className={`results-needs-review${on ? ' is-on' : ''}`}
      type={on ? 'primary' : 'default'}
      icon={<EyeOutlined />}
      aria-pressed={on}
      onClick={() => onFilterChange({ ...filter, needsReview: !on })}
      data-testid="results-needs-review"
      data-count={n ?? ''}
    >
      {n === null ? t('filter.needs_review') : t('filter.needs_review_count', { count: n, formatted: formatCount(n) })}
    </Button>
  );
}
