import { PAGE_SIZE_MAX } from '@cassavascope/contract';
import { PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { App, Button, Input, Select, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateSection } from '../../lib/section-context';
import { EmptyState } from '../../lib/empty-state';
import { LoadErrorState } from '../../lib/load-error-state';
import { PageShell } from '../../lib/page-shell';
import type { TaskView } from '../../lib/normalize-task';
import { handOver } from '../../lib/hand-over';
import { useLabModels } from '../../lib/lab-models';
import { useCancelTask } from './api/cancel-task';
import { useDeleteTask } from './api/delete-task';
import { anyTaskRunning, isFilteredList, TASKS_PAGE, useTasks } from './api/get-tasks';
import { DeleteTaskDialog } from './components/delete-task-dialog';
import { ScoreAgainDialog } from './components/score-again-dialog';
import { TaskDetailsModal } from './components/task-details-modal';
import { TaskRow } from './components/task-row';
import { TaskSummaryCards } from './components/task-summary-cards';
import { useNow } from './hooks/use-now';
import { countStatuses, summarizeTasks, summaryCounts } from './task-figures';
import './tasks.css';
import { SEARCH_DEBOUNCE_MS } from '../../lib/use-live-search';

const STATUS_FILTERS = ['all', 'running', 'completed', 'failed', 'cancelled'] as const;

/** Tasks: follow, cancel, inspect and delete prediction tasks (spec section 2). */
export default function TasksPage() {
  const { t } = useTranslation('tasks');
  const { message } = App.useApp();
  const navigate = useNavigateSection();
  const cancel = useCancelTask();
  const remove = useDeleteTask();
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<string>('all');
  const [limit, setLimit] = useState(TASKS_PAGE);
  const tasks = useTasks({ search, status, limit });
  const [refreshing, setRefreshing] = useState(false);
  const [detailsId, setDetailsId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<TaskView | null>(null);
  const [scoringAgain, setScoringAgain] = useState<TaskView | null>(null);
  const labModels = useLabModels();
  const labModelNameOf = (task: TaskView) =>
    task.modelId === null ? null : (labModels.data?.find((m) => m.id === task.modelId)?.name ?? null);
  // Filtered by the server: the newest `limit` matches of every task, however many there are.
  const visible = useMemo(() => tasks.data?.results ?? [], [tasks.data]);
  const matching = tasks.data?.count ?? 0;
  const now = useNow(anyTaskRunning(tasks.data));
  // Without the server's status_counts (another backend), the last unfiltered rows stand in while filtering.
  const [lastUnfiltered, setLastUnfiltered] = useState<Record<string, number> | null>(null);
  useEffect(() => {
    if (tasks.data && !tasks.data.statusCounts && !tasks.data.filtered)
      setLastUnfiltered(countStatuses(tasks.data.results));
  }, [tasks.data]);
  const summary = useMemo(
    () => summarizeTasks(summaryCounts(tasks.data, lastUnfiltered)),
    [tasks.data, lastUnfiltered],
  );

  useEffect(() => {
    const timer = setTimeout(() => setSearch(searchInput), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput]);
  // Another search or status starts again from the newest page.
  useEffect(() => setLimit(TASKS_PAGE), [search, status]);
  // The details modal reads the polled list, so it updates live without requests of its own.
  const details = detailsId === null ? null : (visible.find((task) => task.id === detailsId) ?? null);

  useEffect(() => {
    if (tasks.isError) message.error(t('errors.load'));
  }, [tasks.isError, tasks.errorUpdatedAt, message, t]);

  const loading = tasks.isLoading || refreshing;
  const onRefresh = async () => {
    setRefreshing(true);
    try {
      await tasks.refetch();
    } finally {
      setRefreshing(false);
    }
  };

  const onCancel = (task: TaskView) =>
    cancel.mutate(task.id, {
      onSuccess: () => message.success(t('cancelled')),
      onError: () => message.error(t('errors.cancel')),
    });

  const onDelete = (task: TaskView) =>
    remove.mutate(task.id, {
      onSuccess: () => {
        setDeleting(null);
        if (detailsId === task.id) setDetailsId(null);
        message.success(t('deleted'));
      },
      onError: () => message.error(t('errors.delete')),
    });

  const onViewResults = (task: TaskView) => {
    handOver('resultsTask', task.id);
    navigate('results');
  };

  const onRerun = (task: TaskView) => {
    handOver('rerunParameters', {
      taskName: task.name,
      ...task.parameters,
      specimenKind: task.specimenKind,
      modelId: task.modelId,
    });
    navigate('prediction');
  };

  // "Score again with this model": the same images, parameters and specimen kind, the chosen model; the
  // Prediction screen opens with them picked, to check and create the task.
  const onScoreAgain = (task: TaskView, modelId: number | null) => {
    handOver('rerunParameters', {
      taskName: task.name,
      ...task.parameters,
      specimenKind: task.specimenKind,
      modelId,
      imageIds: task.image_ids,
    });
    setScoringAgain(null);
    navigate('prediction');
  };

  // An empty list under a search or status filter is "no matches", whatever the totals say.
  const filtered = isFilteredList({ search: searchInput, status });

  return (
    <PageShell
      name="tasks"
      title={t('title')}
      subtitle={t('subtitle')}
      actions={
        <Button
          icon={<ReloadOutlined spin={loading} />}
          disabled={loading}
          onClick={() => void onRefresh()}
          data-testid="tasks-refresh"
        >
          {t('refresh')}
        </Button>
      }
    >
      {/* No list yet and the load failed: the figures are unknown, not zero. */}
      <TaskSummaryCards summary={tasks.data || lastUnfiltered ? summary : null} />
      <div className="tasks-filters">
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('search')}
          aria-label={t('search')}
          value={searchInput}
          onChange={(e) => setSearchInput(e.target.value)}
          className="tasks-search"
        />
        <Select
          value={status}
          onChange={setStatus}
          aria-label={t('status_filter')}
          className="tasks-status-filter"
          data-testid="tasks-status-filter"
          options={STATUS_FILTERS.map((value) => ({ value, label: t(`filter.${value}`) }))}
        />
      </div>
      {tasks.isLoading ? (
        <div className="tasks-loading">
          <Spin size="large" />
        </div>
      ) : tasks.isError && !tasks.data ? (
        <LoadErrorState
          error={tasks.error}
          onRetry={() => void onRefresh()}
          retrying={loading}
          className="tasks-empty"
          testId="tasks-error"
        />
      ) : visible.length === 0 ? (
        <EmptyState
          className="tasks-empty"
          testId="tasks-empty"
          title={t(filtered ? 'empty.no_matches' : 'empty.no_tasks')}
          hint={t(filtered ? 'empty.no_matches_hint' : 'empty.no_tasks_hint')}
        >
          {!filtered && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('prediction')}>
              {t('empty.create')}
            </Button>
          )}
        </EmptyState>
      ) : (
        <div className="tasks-list" data-testid="tasks-list">
          {visible.map((task) => (
            <TaskRow
              key={task.id}
              task={task}
              now={now}
              cancelling={cancel.isPending && cancel.variables === task.id}
              onCancel={onCancel}
              onDetails={(item) => setDetailsId(item.id)}
              onDelete={setDeleting}
              labModelName={labModelNameOf(task)}
            />
          ))}
          {matching > visible.length ? (
            <div className="tasks-more" data-testid="tasks-more">
              <Typography.Text type="secondary">
                {t('shown_of', { shown: visible.length, total: matching })}
              </Typography.Text>
              {/* The API pages at most 1000 rows: past that, the search narrows. */}
              {limit < PAGE_SIZE_MAX ? (
                <Button
                  onClick={() => setLimit((n) => Math.min(PAGE_SIZE_MAX, n + TASKS_PAGE))}
                  loading={tasks.isFetching && limit > visible.length}
                >
                  {t('show_more')}
                </Button>
              ) : null}
            </div>
          ) : null}
        </div>
      )}
      <TaskDetailsModal
        task={details}
        now={now}
        onClose={() => setDetailsId(null)}
        onViewResults={onViewResults}
        onRerun={onRerun}
        onScoreAgain={setScoringAgain}
        labModelName={details ? labModelNameOf(details) : null}
      />
      <ScoreAgainDialog task={scoringAgain} onClose={() => setScoringAgain(null)} onScore={onScoreAgain} />
      <DeleteTaskDialog
        task={deleting}
        deleting={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setDeleting(null)}
      />
    </PageShell>
  );
}
