/**
 * Limits of one upload request (MAX_UPLOAD_MB, the per-file cap, comes from the configuration).
 * Chosen so a research lab's real batches pass (a day of camera photos) while a hostile request
 * cannot fill the disk or memory.
 */
export const UPLOAD_LIMITS = {
  /** files in one multipart request (upload-files); more is a 413 */
  maxFilesPerRequest: 1000,
  /** entries in one ZIP (directories included); more is a 413 */
  maxZipEntries: 10_000,
  /** total uncompressed bytes of one ZIP's entries; more is a 413 */
  maxZipTotalBytes: 50 * 1024 ** 3,
  /** uncompressed / compressed above this, for an entry over 1 MB, is treated as a zip bomb */
  maxCompressionRatio: 100,
  compressionRatioMinBytes: 1024 * 1024,
  /** decoded pixels of one image (sharp's default guard against decompression bombs) */
  maxInputPixels: 268_402_689,
  /** longest side of the WebP thumbnail */
  thumbnailSize: 400,
  /** images decoded at the same time (two cores) */
  decodeConcurrency: 2,
} as const;
