import { afterAll, describe, expect, it } from 'vitest';
import i18n from '../src/lib/i18n';
import { normalizeTask } from '../src/lib/normalize-task';
import { countStatuses, summarizeTasks, taskStatusText } from '../src/features/tasks/task-figures';

/**
 * Issue 25 point 3: a refusal (no specimen to score) is an outcome, not a failure. A task whose 14 photos were
 * all rightly refused reads "Completed, 14 refused", not a red "Failed", and does not pull the success rate down.
 */
const task = (over: Record<string, unknown>) =>
  normalizeTask({
    id: 1,
    name: 'T',
    status: 'completed',
    image_count: 14,
    processed_count: 14,
    failed_count: 0,
    refused_count: 0,
    ...over,
  });
const allRefused = task({ failed_count: 14, refused_count: 14 });
const tasksT = (key: string, options?: Record<string, unknown>) => i18n.t(key, { ns: 'tasks', ...options });

afterAll(async () => {
  await i18n.changeLanguage('en');
});

describe('refused photos are outcomes', () => {
  it('reads refused_count from the task (0 from a backend without it)', () => {
    expect(allRefused.refusedCount).toBe(14);
    expect(normalizeTask({ id: 2, status: 'completed' }).refusedCount).toBe(0);
  });

  it('the status says how many were refused, in English and Chinese', async () => {
    await i18n.changeLanguage('en');
    expect(taskStatusText(tasksT, allRefused)).toBe('Completed, 14 refused');
    expect(taskStatusText(tasksT, task({ refused_count: 1, failed_count: 1 }))).toBe('Completed, 1 refused');
    expect(taskStatusText(tasksT, task({}))).toBe('Completed');
    expect(taskStatusText(tasksT, task({ status: 'failed', failed_count: 14 }))).toBe('Failed');
    await i18n.changeLanguage('zh');
    expect(taskStatusText(tasksT, allRefused)).toBe('已完成，14 张被拒绝');
    expect(taskStatusText(tasksT, task({}))).toBe('已完成');
    expect(taskStatusText(tasksT, task({ status: 'failed', failed_count: 14 }))).toBe('失败');
    await i18n.changeLanguage('en');
  });

  it('the success rate counts a task of refused photos as completed', () => {
    const done = [task({}), task({}), task({})];
    expect(summarizeTasks(countStatuses([...done, allRefused])).successRate).toBe(100);
    // A backend that still marked the all-refused task failed: every image was attempted, so it is an outcome.
    const markedFailed = task({ status: 'failed', failed_count: 14, refused_count: 14 });
    expect(summarizeTasks(countStatuses([...done, markedFailed]))).toMatchObject({ failed: 0, successRate: 100 });
    expect(taskStatusText(tasksT, markedFailed)).toBe('Completed, 14 refused');
    // The engine stopped half way: the task itself failed, whatever it had refused by then.
    const stopped = task({ status: 'failed', processed_count: 5, failed_count: 5, refused_count: 2 });
    expect(summarizeTasks(countStatuses([...done, stopped]))).toMatchObject({ failed: 1, successRate: 75 });
  });
});
