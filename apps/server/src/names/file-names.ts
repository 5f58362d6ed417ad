import { nfc } from './names.js';

/** The longest stored image name (characters). */
const MAX_NAME_LENGTH = 255;

/**
 * The name an uploaded file or ZIP entry is stored under: its base name only (any folder part,
 * `..`, drive letter or backslash path is dropped), in NFC, trimmed and capped. Names never become
 * file paths (files are stored by content hash). Control and bidirectional-override characters are
 * not removed here: callers refuse such a name (`isPlainName`) rather than store a silently altered one.
 */
export function baseName(raw: string): string {
  const last = raw.replace(/\\/g, '/').split('/').pop() ?? '';
  let name = nfc(last).trim();
  if (name === '.' || name === '..') name = '';
  return Array.from(name).slice(0, MAX_NAME_LENGTH).join('');
}

/** Fallback when a name is empty after cleaning. */
export const UNNAMED = 'unnamed';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const gbk = new TextDecoder('gbk', { fatal: true });

/**
 * Decodes a ZIP entry's raw name. An Info-ZIP Unicode Path field wins; otherwise the bytes are
 * tried as UTF-8 (bit 11 promises it, but many tools write UTF-8 without the flag and some set it
 * on code-page names), then GBK (Chinese Windows), then Latin-1 so a name is always produced.
 */
export function decodeZipName(raw: Buffer, extraFields: { id: number; data: Buffer }[]): string {
  const unicodePath = extraFields.find((f) => f.id === 0x7075);
  if (unicodePath && unicodePath.data.length > 5 && unicodePath.data[0] === 1) {
    try {
      return utf8.decode(unicodePath.data.subarray(5));
    } catch {
      // fall through to the header name
    }
  }
  try {
    return utf8.decode(raw);
  } catch {
    try {
      return gbk.decode(raw);
    } catch {
      return raw.toString('latin1');
    }
  }
}
