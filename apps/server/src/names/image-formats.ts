/** The image formats the library stores (sniffed from the bytes at upload; the listing's `format` filter). */
export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'tiff', 'gif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
