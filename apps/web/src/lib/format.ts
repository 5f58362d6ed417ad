import i18n from './i18n';

const BYTES_PER_MB = 1024 * 1024;

/**
 * Sizes are shown in MB with 2 decimals (spec section 9); a file too small to show at 2 decimals (a 3 KB file
 * would read "0.00 MB") is "< 0.01 MB" (issue 15 item 8). Nothing is 0.00 MB.
 */
export function formatSizeMb(bytes: number): string {
  const mb = bytes / BYTES_PER_MB;
  return bytes > 0 && mb < 0.005 ? '< 0.01 MB' : `${mb.toFixed(2)} MB`;
}

function locale(): string {
  return i18n.language === 'zh' ? 'zh-CN' : 'en-US';
}

/** Intl formatters are costly to build (a grid renders hundreds of dates while scrolling): build each once. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale()}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale(), options);
    formatters.set(key, f);
  }
  return f;
}

function toDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Date and time in the current language, "--" when unknown. */
export function formatDateTime(value: string | null | undefined): string {
  const d = toDate(value);
  if (!d) return '--';
  return formatter({ dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** Date only, in the current language. */
export function formatDate(value: string | null | undefined): string {
  const d = toDate(value);
  if (!d) return '--';
  return formatter({ dateStyle: 'medium' }).format(d);
}

/** Any Intl.DateTimeFormat options, in the current language (used by the date grouping headers). */
export function formatDateWith(value: string | null | undefined, options: Intl.DateTimeFormatOptions): string {
  const d = toDate(value);
  if (!d) return '--';
  return formatter(options).format(d);
}

/** Integers with the language's digit grouping. */
export function formatCount(n: number): string {
  return new Intl.NumberFormat(locale()).format(n);
}
