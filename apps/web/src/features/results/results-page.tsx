import { BarChartOutlined, DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Spin } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateSection } from '../../lib/section-context';
import { EmptyState } from '../../lib/empty-state';
import { LoadErrorState } from '../../lib/load-error-state';
import { PageShell } from '../../lib/page-shell';
import { useStoredState } from '../../lib/use-stored-state';
import { useHandOver } from '../../lib/hand-over';
import { GroupSummary } from '../../lib/groups/group-summary';
import { exportGroups, exportResults, type ExportFormat } from './api/export-results';
import { useResultTasks } from './api/get-result-tasks';
import { resultFilterQuery, useResultAt, useResultsPage, type ResultFilter } from './api/get-results-page';
import { useResultsSummary } from './api/get-results-summary';
import { refreshAfterReview } from './api/review-api';
import { FullScreenPreview } from './components/full-screen-preview';
import { ResultDetailModal } from './components/result-detail-modal';
import { ResultsCollection } from './components/results-collection';
import { ResultsFilterBar, type ResultsView } from './components/results-filter-bar';
import { ResultsOverview } from './components/results-overview';
import { TaskBanner } from './components/task-banner';
import { TaskSidebar } from './components/task-sidebar';
import { readResultsViewState, RESULTS_VIEW_KEY } from './results-view-state';
import './results.css';

const RUNNING_REFRESH_MS = 5_000;

/** Results: browse, filter, inspect and export the prediction results of one task or all (spec section 2). */
export default function ResultsPage() {
  const { t } = useTranslation('results');
  const { message } = App.useApp();
  const navigate = useNavigateSection();
  // Filters, layout and By group fields are kept across a reload; a task handed over by Tasks wins over the saved one.
  const handedOver = useHandOver('resultsTask');
  const [saved, setSaved] = useStoredState(RESULTS_VIEW_KEY, readResultsViewState, (state) =>
    handedOver === null ? state : { ...state, filter: { ...state.filter, taskId: handedOver } },
  );
  const { filter, view, listView, groupFields } = saved;
  // The first result of the current filter is selected; the detail modal and the preview show the selected one.
  const [selectedIndex, setSelectedIndex] = useState(0);
  const [detailOpen, setDetailOpen] = useState(false);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [exporting, setExporting] = useState(false);

  const tasks = useResultTasks();
  const task = useMemo(
    () => tasks.data?.results.find((item) => item.id === filter.taskId) ?? null,
    [tasks.data, filter.taskId],
  );
  // A saved task that no longer exists: all tasks, without an error. Only from a list fetched on this visit and
  // complete (a task just created by a hand-over may be missing from the cached one).
  const taskGone =
    filter.taskId !== null &&
    tasks.data !== undefined &&
    tasks.isFetchedAfterMount &&
    !tasks.isFetching &&
    task === null &&
    tasks.data.results.length >= tasks.data.count;
  useEffect(() => {
    if (taskGone) setSaved((state) => ({ ...state, filter: { ...state.filter, taskId: null } }));
  }, [taskGone, setSaved]);
  const running =
    filter.taskId === null
      ? (tasks.data?.results.some((item) => item.status === 'running') ?? false)
      : task?.status === 'running';
  const summary = useResultsSummary(filter);
  const first = useResultsPage(filter, 1, true);
  const count = first.data?.count ?? null;
  const selected = useResultAt(filter, selectedIndex);

  // While the task runs its results grow: refresh what is on screen, and once more when it stops.
  const client = useQueryClient();
  useEffect(() => {
    const refresh = () =>
      void client.invalidateQueries({ queryKey: ['results'], predicate: (q) => q.queryKey[1] !== 'tasks' });
    if (!running) return;
    const timer = setInterval(refresh, RUNNING_REFRESH_MS);
    return () => {
      clearInterval(timer);
      refresh();
    };
  }, [running, client]);

  useEffect(() => {
    if (first.isError || summary.isError) message.error(t('errors.load'));
  }, [first.isError, summary.isError, message, t]);
  useEffect(() => {
    if (tasks.isError) message.error(t('errors.load_tasks'));
  }, [tasks.isError, message, t]);

  const changeFilter = (next: ResultFilter) => {
    setSaved((state) => ({ ...state, filter: next }));
    setSelectedIndex(0);
    setDetailOpen(false);
    setPreviewOpen(false);
  };

  const changeView = (next: ResultsView) =>
    setSaved((state) => ({ ...state, view: next, listView: next === 'groups' ? state.listView : next }));

  // The CSV is fetched and checked first: the success message only follows a file the server really sent.
  const onExport = async (by?: string[], format: ExportFormat = 'results') => {
    setExporting(true);
    try {
      await (by ? exportGroups(filter, by) : exportResults(filter, format));
      message.success(
        t(by ? 'groups.export_success' : format === 'specimens' ? 'export.success_specimens' : 'export.success'),
      );
    } catch {
      message.error(t(by ? 'groups.export_failed' : 'export.failed'));
    } finally {
      setExporting(false);
    }
  };

  const openDetail = useCallback((index: number) => {
    setSelectedIndex(index);
    setDetailOpen(true);
  }, []);
  const openPreview = useCallback((index: number) => {
    setSelectedIndex(index);
    setPreviewOpen(true);
  }, []);

  // "All tasks" lists a photo once per task that scored it: each card then names its task.
  const taskNames = useMemo(
    () =>
      filter.taskId === null && tasks.data ? new Map(tasks.data.results.map((item) => [item.id, item.name])) : null,
    [filter.taskId, tasks.data],
  );
  // Results of the filter that have no PPD (failed images): the list counts them, the summary (same filter) does not.
  const unscored =
    count !== null && summary.data && !summary.isPlaceholderData && !first.isPlaceholderData
      ? Math.max(0, count - summary.data.count)
      : 0;

  // Filters beyond the task: the cards then describe the narrowed list, and say so.
  const narrowed =
    filter.search.trim() !== '' ||
    filter.severity !== 'all' ||
    filter.needsReview === true ||
    !!filter.meta?.value ||
    !!filter.group;
  const filtered = filter.taskId !== null || narrowed;

  // Review: the detail walks the list (N / P); reviewed results stay in place until it closes, then lists reload.
  const total = count ?? 0;
  const reviewNav = {
    onNext: selectedIndex + 1 < total ? () => setSelectedIndex((i) => Math.min(i + 1, total - 1)) : undefined,
    onPrev: selectedIndex > 0 ? () => setSelectedIndex((i) => Math.max(i - 1, 0)) : undefined,
    position: total > 0 ? { current: selectedIndex + 1, total } : undefined,
  };
  const closeDetail = () => {
    setDetailOpen(false);
    refreshAfterReview(client);
  };

  return (
    <PageShell name="results" icon={<BarChartOutlined />} title={t('title')} subtitle={t('subtitle')}>
      <div className="results-layout">
        <TaskSidebar
          tasks={tasks.data?.results ?? []}
          count={tasks.data?.count ?? null}
          loading={tasks.isLoading}
          selected={filter.taskId}
          onSelect={(taskId) => changeFilter({ ...filter, taskId })}
        />
        <div className="results-main">
          {task && <TaskBanner task={task} />}
          <ResultsOverview summary={summary.data} allTasks={filter.taskId === null} narrowed={narrowed} />
          <ResultsFilterBar
            filter={filter}
            onFilterChange={changeFilter}
            count={count}
            unscored={unscored}
            view={view}
            onViewChange={changeView}
            onExport={view === 'groups' ? undefined : (format) => void onExport(undefined, format)}
            exporting={exporting}
          />
          {view === 'groups' ? (
            // The groups of the results the filters select; a group opens the list filtered to it.
            <GroupSummary
              filter={resultFilterQuery(filter)}
              taskNames={task ? [task.name] : filter.taskId !== null ? [`#${filter.taskId}`] : []}
              fields={groupFields}
              onFieldsChange={(fields) => setSaved((state) => ({ ...state, groupFields: fields }))}
              onPick={(g) => {
                changeFilter({ ...filter, group: g.key });
                changeView(listView);
              }}
              emptyText={t('groups.empty')}
              actions={(query) => (
                <Button
                  icon={<DownloadOutlined />}
                  onClick={() => void onExport(query.by)}
                  loading={exporting}
                  disabled={query.by.length === 0}
                  data-testid="groups-export"
                >
                  {t('groups.export')}
                </Button>
              )}
            />
          ) : first.isLoading ? (
            <div className="results-loading">
              <Spin size="large" />
            </div>
          ) : first.isError && !first.data ? (
            // The first load failed: an error with a retry, never "no results yet".
            <LoadErrorState
              error={first.error}
              onRetry={() => void client.invalidateQueries({ queryKey: ['results'] })}
              retrying={first.isFetching}
              className="results-empty"
              testId="results-error"
            />
          ) : count === 0 || count === null ? (
            <EmptyState
              className="results-empty"
              testId="results-empty"
              title={t(filtered ? 'empty.filtered' : 'empty.none')}
              hint={t(filtered ? 'empty.filtered_hint' : 'empty.none_hint')}
            >
              {!filtered && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('prediction')}>
                  {t('empty.create')}
                </Button>
              )}
            </EmptyState>
          ) : (
            <ResultsCollection
              view={listView}
              filter={filter}
              count={count}
              selectedIndex={selectedIndex}
              onOpen={openDetail}
              onPreview={openPreview}
              taskNames={taskNames}
            />
          )}
        </div>
      </div>
      <ResultDetailModal
        open={detailOpen}
        result={selected}
        onClose={closeDetail}
        onPreview={() => setPreviewOpen(true)}
        review={reviewNav}
      />
      {previewOpen && count !== null && count > 0 && (
        <FullScreenPreview
          result={selected}
          index={selectedIndex}
          count={count}
          onNavigate={setSelectedIndex}
          onClose={() => setPreviewOpen(false)}
        />
      )}
    </PageShell>
  );
}
