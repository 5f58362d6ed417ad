import type { Task, TaskSpecimenKind, TaskStatus, TaskType } from '@cassavascope/contract';
import type { TaskRow } from './tasks.repository.js';
import { storedTaskParameters } from './task-parameters.js';

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * A task row as the API's Task object. Progress and statistics derive from the atomic counters. `creators`
 * names the users who started tasks (a deleted account keeps only its id).
 */
export function toTask(row: TaskRow, creators: ReadonlyMap<number, string> = new Map()): Task {
  const p = storedTaskParameters(row.parameters);
  const processed = row.processed_count;
  return {
    id: row.id,
    name: row.name,
    type: row.type as TaskType,
    status: row.status as TaskStatus,
    algorithm: row.algorithm,
    model_type: row.model_type,
    engine_label: row.engine_label,
    image_ids: JSON.parse(row.image_ids) as number[],
    image_count: row.image_count,
    progress: row.image_count > 0 ? Math.min(100, (processed / row.image_count) * 100) : 100,
    processed_count: processed,
    failed_count: row.failed_count,
    refused_count: row.refused_count,
    created_time: row.created_at,
    created_by:
      row.created_by === null
        ? null
        : { id: row.created_by, ...(creators.has(row.created_by) ? { username: creators.get(row.created_by)! } : {}) },
    updated_time: row.updated_at,
    completed_time: row.completed_at,
    parameters: {
      threshold: p.threshold,
      min_size: p.min_size,
      method: p.method,
      use_tta: p.use_tta,
      morph_kernel_size: p.morph_kernel_size,
      morph_iterations: p.morph_iterations,
      overlay_opacity: p.overlay_opacity,
      split_count: p.split_count,
    },
    statistics:
      processed === 0
        ? null
        : {
            healthyCount: row.healthy_count,
            diseaseCount: row.disease_count,
            averageConfidence: row.scored_count > 0 ? round(row.confidence_sum / row.scored_count, 4) : 0,
            processingTime: round(row.processing_time_sum, 2),
            totalProcessed: processed,
          },
    error_message: row.error_message,
    specimen_kind: row.specimen_kind as TaskSpecimenKind,
    model_id: row.model_id,
  };
}
