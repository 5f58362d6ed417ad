/**
 * Names people read (images, folders, tasks; api.md "General"): stored in Unicode NFC, so the NFC and NFD
 * spellings of one Chinese or accented name are one name for duplicates and search; characters that hide
 * or disguise what a name says are refused, never silently dropped.
 */

/**
 * C0 and C1 controls (NUL, line breaks, escapes), DEL, the line and paragraph separators, and the
 * bidirectional embedding, override and isolate controls (`invoice\u202Egpj.exe` shows as "invoiceexe.jpg").
 * The plain direction marks (LRM, RLM, ALM) stay allowed: Arabic and Hebrew names need them.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const NAME_PROBLEM =
  'must not contain control characters, bidirectional-override characters or broken characters';

/** True when a name holds no control, bidirectional-override or broken (lone surrogate) character. */
export function isPlainName(name: string): boolean {
  return !UNSAFE.test(name) && !LONE_SURROGATE.test(name);
}

/** The stored spelling of a name: Unicode NFC. */
export function nfc(name: string): string {
  return name.normalize('NFC');
}

/** A name shown in an error report: its unsafe characters made visible as U+FFFD. */
export function displayName(name: string): string {
  return name.replace(UNSAFE_ALL, '\uFFFD').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
}
