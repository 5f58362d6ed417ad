import type { Kysely } from 'kysely';

/**
 * `tasks.engine_label`: the label of the engine that scored the task (e.g. "Colour segmentation (CIELAB)"
 * or "DeepLabV3+ ResNet-101"), written by the first job that runs. `model_type` only echoes the requested
 * model; the screens must never show one engine under another's name. Null until a job has run.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('engine_label', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('engine_label').execute();
}
