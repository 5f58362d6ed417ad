import { Readable } from 'node:stream';
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import yazl from 'yazl';

/**
 * Generators of real image and ZIP files for tests and benchmarks: nothing is checked in, every
 * byte is made here. Images differ by `seed` so each has its own sha256.
 */

export interface ImageOptions {
  width?: number;
  height?: number;
  /** varies the colours and the noise, so two seeds never give the same bytes */
  seed?: number;
  /** gaussian noise strength 0-100: 0 = flat (tiny files), ~25 = camera-like entropy */
  noise?: number;
}

function colourOf(seed: number) {
  return { r: (seed * 67) % 256, g: (seed * 131 + 50) % 256, b: (seed * 29 + 100) % 256 };
}

/** A raw RGB picture: a seeded background, a bright block and optional noise. */
function picture({ width = 64, height = 48, seed = 1, noise = 0 }: ImageOptions): Sharp {
  const base = sharp({ create: { width, height, channels: 3, background: colourOf(seed) } });
  const blockW = Math.max(1, Math.floor(width / 3));
  const blockH = Math.max(1, Math.floor(height / 3));
  const layers: OverlayOptions[] = [
    {
      input: { create: { width: blockW, height: blockH, channels: 3, background: colourOf(seed + 7) } },
      left: (seed * 13) % Math.max(1, width - blockW),
      top: (seed * 7) % Math.max(1, height - blockH),
    },
  ];
  if (noise > 0) {
    layers.push({
      input: {
        create: {
          width,
          height,
          channels: 3,
          background: { r: 0, g: 0, b: 0 },
          noise: { type: 'gaussian', mean: 0, sigma: noise },
        },
      },
      blend: 'add',
    });
  }
  return base.composite(layers);
}

export async function makeJpeg(
  options: ImageOptions & { quality?: number; orientation?: number } = {},
): Promise<Buffer> {
  let img = sharp(await picture(options).png({ compressionLevel: 1 }).toBuffer());
  if (options.orientation) img = img.withMetadata({ orientation: options.orientation });
  return img.jpeg({ quality: options.quality ?? 85 }).toBuffer();
}

export const makePng = (o: ImageOptions = {}) => picture(o).png().toBuffer();
export const makeWebp = (o: ImageOptions = {}) => picture(o).webp().toBuffer();
export const makeTiff = (o: ImageOptions = {}) => picture(o).tiff().toBuffer();
export const makeGif = (o: ImageOptions = {}) => picture(o).gif().toBuffer();

/** The first part of a valid JPEG: its header says JPEG but the pixels stop half way. */
export async function makeTruncatedJpeg(o: ImageOptions = {}): Promise<Buffer> {
  const full = await makeJpeg({ width: 256, height: 256, noise: 20, ...o });
  return full.subarray(0, Math.floor(full.length / 2));
}

export const SVG_BYTES = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
);
export const TEXT_BYTES = Buffer.from('this is not an image, whatever its name says\n');

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** deflate the entry (default true) */
  compress?: boolean;
  /** written as a stream: sizes and CRC in a data descriptor after the data (general purpose bit 3) */
  streamed?: boolean;
}

/**
 * A ZIP of the given entries. yazl refuses names like `../x` or `/x`, so such names are written
 * as same-length placeholders and patched into the bytes afterwards (both headers).
 */
export async function makeZip(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const patches: [Buffer, Buffer][] = [];
  entries.forEach((e, i) => {
    let name = e.name;
    if (/(^|\/)\.\.(\/|$)|^\/|\\/.test(name)) {
      const placeholder = `p${i}`.padEnd(Buffer.byteLength(name), 'x');
      patches.push([Buffer.from(placeholder), Buffer.from(name)]);
      name = placeholder;
    }
    if (name.endsWith('/')) zip.addEmptyDirectory(name, { mtime: new Date('2026-01-01T00:00:00Z') });
    else if (e.streamed)
      zip.addReadStream(Readable.from([e.data]), name, {
        compress: e.compress ?? true,
        mtime: new Date('2026-01-01T00:00:00Z'),
      });
    else zip.addBuffer(e.data, name, { compress: e.compress ?? true, mtime: new Date('2026-01-01T00:00:00Z') });
  });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  const out = Buffer.concat(chunks);
  for (const [from, to] of patches) {
    for (let at = out.indexOf(from); at !== -1; at = out.indexOf(from, at + to.length)) to.copy(out, at);
  }
  return out;
}

/**
 * Clears the "names are UTF-8" flag (bit 11) of every entry, as old Windows tools write ZIPs
 * (their names are in the local code page, e.g. GBK).
 */
export function clearUtf8Flags(zip: Buffer): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i + 10 < out.length; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x04034b50) out.writeUInt16LE(out.readUInt16LE(i + 6) & ~0x800, i + 6);
    else if (sig === 0x02014b50) out.writeUInt16LE(out.readUInt16LE(i + 8) & ~0x800, i + 8);
  }
  return out;
}

/** A small file that inflates to `megabytes` MB of zeros: a compression ratio near 1000:1. */
export async function makeBombZip(megabytes = 64): Promise<Buffer> {
  return makeZip([{ name: 'bomb.jpg', data: Buffer.alloc(megabytes * 1024 * 1024) }]);
}

/** A multipart body builder over the platform FormData (names and bytes exactly as given). */
export function formWith(
  files: { field?: string; name: string; data: Buffer; type?: string }[],
  fields: Record<string, string> = {},
): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) {
    form.append(
      f.field ?? 'files',
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }),
      f.name,
    );
  }
  return form;
}
