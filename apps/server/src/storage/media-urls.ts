import type { AppConfig } from '../config/config.js';
import type { BlobStorage } from './blob-storage.js';

/** With sign-in on and OSS_BASE_URL set, `/media/` answers with a redirect to a presigned URL of the bucket. */
export function presignsMedia(config: AppConfig, storage: BlobStorage): boolean {
  return config.auth.enabled && config.ossBaseUrl !== undefined && storage.presignedUrl !== undefined;
}

/** A valid key, only ever signed (never read) to learn the origin of the URLs browsers are sent to. */
const PROBE_KEY = 'originals/00/csp-origin-probe.jpg';

/**
 * The origins other than this server's that browsers load stored files from (the page's CSP allows them as
 * images, issue 26 item 5): OSS_BASE_URL's when URLs point at the bucket directly (sign-in off), the presigned
 * URLs' when `/media/` redirects there (sign-in on); none when this server streams the files.
 */
export async function mediaOrigins(config: AppConfig, storage: BlobStorage): Promise<string[]> {
  const origins = new Set<string>();
  const direct = storage.url(PROBE_KEY);
  if (/^https?:\/\//i.test(direct)) origins.add(new URL(direct).origin);
  if (presignsMedia(config, storage)) origins.add(new URL(await storage.presignedUrl!(PROBE_KEY, 60)).origin);
  return [...origins];
}
