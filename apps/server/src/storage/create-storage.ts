import type { AppConfig } from '../config/config.js';
import type { BlobStorage } from './blob-storage.js';
import { LocalStorage } from './local-storage.js';

/**
 * Local files by default; S3-compatible object storage when S3_BUCKET is configured. With sign-in on, URLs
 * never point at the bucket's public address (OSS_BASE_URL): files go through /media/, which checks the session.
 */
export async function createStorage(config: AppConfig): Promise<BlobStorage> {
  if (config.s3) {
    const { S3Storage } = await import('./s3-storage.js');
    return S3Storage.create(config.s3, config.auth.enabled ? undefined : config.ossBaseUrl, config.dataDir);
  }
  return new LocalStorage(config.dataDir);
}
