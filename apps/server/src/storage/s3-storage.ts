import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { AppConfig } from '../config/config.js';
import { processTempDir } from './temp-sweep.js';
import { contentTypeForKey, isValidKey, type BlobStorage } from './blob-storage.js';

type S3Config = NonNullable<AppConfig['s3']>;

/** S3 answers "not found" in several ways depending on the call and the server. */
function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
  }
  return false;
}

/** DeleteObjects takes at most 1000 keys per request. */
const DELETE_BATCH = 1000;
/** Multipart part size for putFile: big enough for few requests, small enough to keep memory flat. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Blobs in an S3-compatible bucket. Uploads stream from the temp file in parts (never the whole file in
 * memory). Objects are immutable once written: a PUT replaces the whole object, so readers see the old
 * object or the new one. URLs point at OSS_BASE_URL when set, else at /media/ (the server streams them).
 */
export class S3Storage implements BlobStorage {
  readonly kind = 's3' as const;

  private constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly ossBaseUrl: string | undefined,
    readonly tempDir: string,
  ) {}

  static async create(s3: S3Config, ossBaseUrl: string | undefined, dataDir: string): Promise<S3Storage> {
    const client = new S3Client({
      region: s3.region,
      forcePathStyle: s3.forcePathStyle,
      ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
      ...(s3.accessKeyId && s3.secretAccessKey
        ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
        : {}),
      // With the SDK's default (WHEN_SUPPORTED), streamed bodies are sent with aws-chunked framing and a
      // trailing checksum; servers that do not implement it (s3rver, some S3 clones) store the framing
      // inside the object: silent corruption. Checksums only where the API requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    try {
      await client.send(new HeadBucketCommand({ Bucket: s3.bucket }));
    } catch (err) {
      client.destroy();
      const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      throw new Error(`S3 bucket "${s3.bucket}" is not reachable at ${s3.endpoint ?? 'AWS'} (${why})`, { cause: err });
    }
    return new S3Storage(client, s3.bucket, ossBaseUrl, processTempDir(dataDir));
  }

  private check(key: string): void {
    if (!isValidKey(key)) throw new Error(`invalid storage key: ${key}`);
  }

  async putFile(key: string, tempFilePath: string, contentType: string): Promise<void> {
    this.check(key);
    try {
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: key, Body: fs.createReadStream(tempFilePath), ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
    } finally {
      await fsp.rm(tempFilePath, { force: true });
    }
  }

  async putBuffer(key: string, bytes: Buffer, contentType: string): Promise<void> {
    this.check(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    );
  }

  async get(key: string) {
    if (!isValidKey(key)) return null;
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(out.Body instanceof Readable)) throw new Error('S3 GetObject returned no stream body');
      return {
        stream: out.Body,
        size: out.ContentLength ?? 0,
        contentType:
          out.ContentType && out.ContentType !== 'binary/octet-stream' ? out.ContentType : contentTypeForKey(key),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async getBuffer(key: string): Promise<Buffer | null> {
    const obj = await this.get(key);
    if (!obj) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of obj.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async exists(key: string): Promise<boolean> {
    if (!isValidKey(key)) return false;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async delete(keys: string[]): Promise<void> {
    const valid = keys.filter(isValidKey);
    for (let i = 0; i < valid.length; i += DELETE_BATCH) {
      const batch = valid.slice(i, i + DELETE_BATCH);
      const out = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length)
        throw new Error(`S3 delete failed for ${failed.map((e) => `${e.Key} (${e.Code})`).join(', ')}`);
    }
  }

  async *list(prefix: string): AsyncIterable<string> {
    for await (const { key } of this.listWithTimes(prefix)) yield key;
  }

  async *listWithTimes(prefix: string): AsyncIterable<{ key: string; modified: number | undefined }> {
    // ListObjects (v1) paged by Marker = last key seen: every S3 implementation supports it, while
    // s3rver's ListObjectsV2 continuation tokens use DES, which Node 20's OpenSSL 3 no longer provides.
    let marker: string | undefined;
    for (;;) {
      const out = await this.client.send(
        new ListObjectsCommand({ Bucket: this.bucket, Prefix: prefix, Marker: marker }),
      );
      const objects = (out.Contents ?? []).filter((o) => o.Key !== undefined);
      for (const o of objects) yield { key: o.Key as string, modified: o.LastModified?.getTime() };
      if (!out.IsTruncated || objects.length === 0) return;
      marker = objects[objects.length - 1]!.Key;
    }
  }

  url(key: string): string {
    return this.ossBaseUrl ? `${this.ossBaseUrl}/${key}` : `/media/${key}`;
  }

  /** A GET of `key` signed with the configured credentials, valid `seconds` (the bucket itself can stay private). */
  async presignedUrl(key: string, seconds: number): Promise<string> {
    this.check(key);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: seconds });
  }

  /** Releases the HTTP connections (closeContext). */
  close(): void {
    this.client.destroy();
  }
}
