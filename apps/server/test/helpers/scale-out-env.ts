/**
 * Extra environment for a test server when the suite runs against the scale-out parts
 * (PostgreSQL, S3, pg-boss). Empty on the embedded default. Filled in by the scale-out issue.
 */
export async function scaleOutEnvForTest(): Promise<Record<string, string>> {
  return {};
}
