// Placeholder: the S3 backend is built in the scale-out issue.
import type { BlobStorage } from './blob-storage.js';

export const S3Storage = {
  async create(_s3: unknown, _ossBaseUrl: string | undefined, _dataDir: string): Promise<BlobStorage> {
    throw new Error('S3 storage is not implemented yet');
  },
};
