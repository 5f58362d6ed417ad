import sharp, { type OverlayOptions } from 'sharp';

/** Tiles images (any sharp-readable bytes) into one PNG, each fitted in a `tile` square with its caption below. */
export async function contactSheet(
  items: { image: Buffer | null; caption: string }[],
  tile = 320,
  columns = 4,
): Promise<Buffer> {
  const captionH = 34;
  const cellH = tile + captionH;
  const rows = Math.max(1, Math.ceil(items.length / columns));
  const layers: OverlayOptions[] = [];
  for (let i = 0; i < items.length; i++) {
    const { image, caption } = items[i]!;
    const left = (i % columns) * tile;
    const top = Math.floor(i / columns) * cellH;
    if (image) {
      const fitted = await sharp(image).resize(tile, tile, { fit: 'contain', background: '#202020' }).png().toBuffer();
      layers.push({ input: fitted, left, top });
    }
    const lines = wrap(caption, 52).slice(0, 2);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${tile}" height="${captionH}"><rect width="100%" height="100%" fill="#000"/>${lines
      .map(
        (l, k) =>
          `<text x="4" y="${14 + k * 15}" font-family="sans-serif" font-size="12" fill="#fff">${escapeXml(l)}</text>`,
      )
      .join('')}</svg>`;
    layers.push({ input: Buffer.from(svg), left, top: top + tile });
  }
  return sharp({ create: { width: columns * tile, height: rows * cellH, channels: 3, background: '#000' } })
    .composite(layers)
    .png()
    .toBuffer();
}

function wrap(s: string, width: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += width) out.push(s.slice(i, i + width));
  return out;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}
