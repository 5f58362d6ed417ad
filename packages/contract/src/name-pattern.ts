import {
  compileNamePattern,
  nameWithoutExtension,
  namePatternSource,
  typeMetadataValue,
  WELL_KNOWN_FIELDS,
  type ImageMetadata,
  type NamePatternPiece,
} from './metadata.js';

/**
 * Why a file name does not fit a file-name pattern (issue 25 item 5), said in parts a screen can translate:
 * - `value`: the pattern reads the name, but a field's text does not fit the field (`{rep}` read "R1": a number
 *   is expected);
 * - `literal`: text the pattern writes out is not where it should be (`after` is the field before it, null at
 *   the start of the name; `found` is the name from that field on, '' when the name has ended);
 * - `short`: the name ends before this field;
 * - `extra`: the name goes on after the end of the pattern (`found`: the rest).
 */
export type NameMismatch =
  | { kind: 'value'; field: string; found: string; expected: 'number' | 'date' | 'text' }
  | { kind: 'literal'; expected: string; after: string | null; found: string }
  | { kind: 'short'; field: string }
  | { kind: 'extra'; found: string };

export type NameFit = { ok: true; metadata: ImageMetadata } | { ok: false; mismatch: NameMismatch };

/** A compiled pattern, as `compileNamePattern` gives it. */
export type CompiledNamePattern = Extract<ReturnType<typeof compileNamePattern>, { ok: true }>;

/** Found text is shown to people: a long rest of a name is cut. */
const FOUND_MAX = 40;
const cut = (text: string) =>
  Array.from(text).length > FOUND_MAX ? `${Array.from(text).slice(0, FOUND_MAX).join('')}…` : text;

const pieceLabel = (p: NamePatternPiece | undefined): string | null =>
  p === undefined || 'literal' in p ? null : 'field' in p ? p.field : '*';

/**
 * What a name (its extension is left out, as the server does) gives under a compiled pattern, or why it does not
 * fit: the same reading as `POST /images/metadata/parse/` (a match, then each field typed as it would be stored).
 */
export function fitName(compiled: CompiledNamePattern, name: string): NameFit {
  const base = nameWithoutExtension(name);
  const m = compiled.regex.exec(base);
  if (m) {
    const metadata: ImageMetadata = {};
    for (const [i, field] of compiled.fields.entries()) {
      const text = m[i + 1] ?? '';
      const typed = typeMetadataValue(field, text);
      if (!typed.ok) {
        const fixed = WELL_KNOWN_FIELDS.find((w) => w.field === field)?.type ?? null;
        return {
          ok: false,
          mismatch: { kind: 'value', field, found: cut(text.trim()), expected: fixed === null ? 'text' : fixed },
        };
      }
      if (typed.value !== null) metadata[field] = typed.value;
    }
    return { ok: true, metadata };
  }
  // The longest start of the pattern that still reads the start of the name: the piece after it is where it fails.
  const pieces = compiled.pieces;
  const prefix = (k: number) => new RegExp(`^${namePatternSource(pieces.slice(0, k))}`, 'su').exec(base);
  let k = 0;
  while (k < pieces.length && prefix(k + 1)) k += 1;
  if (k === pieces.length)
    return { ok: false, mismatch: { kind: 'extra', found: cut(base.slice(prefix(k)![0].length)) } };
  const failed = pieces[k]!;
  if (!('literal' in failed)) return { ok: false, mismatch: { kind: 'short', field: pieceLabel(failed)! } };
  const before = pieces[k - 1];
  // From the field before on: that field and what follows it hold no such text.
  const from = before === undefined ? 0 : prefix(k - 1)![0].length;
  return {
    ok: false,
    mismatch: { kind: 'literal', expected: failed.literal, after: pieceLabel(before), found: cut(base.slice(from)) },
  };
}

/** Each name under the pattern, or null when the pattern itself is not valid. */
export function fitNames(pattern: string, names: readonly string[]): NameFit[] | null {
  const compiled = compileNamePattern(pattern);
  return compiled.ok ? names.map((n) => fitName(compiled, n)) : null;
}

// ---- a pattern suggested from the names ----

const SEPARATOR = /^[_\-\s.]+$/u;
/** A name in parts: dates whole, runs of separators (_ - . space), and the words between them. */
const TOKEN = /\d{4}-\d{2}-\d{2}|[_\-\s.]+|[^_\-\s.]+/gu;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A number with text before or after it that is the same on every name (R1, 7d, P12). */
const AFFIXED_NUMBER = /^(\D*?)(\d+(?:\.\d+)?)(\D*)$/u;

const tokenise = (text: string): string[] => text.match(TOKEN) ?? [];
const isNumberText = (text: string) => /^\d+(\.\d+)?$/.test(text);
const typeOf = (field: string) => WELL_KNOWN_FIELDS.find((w) => w.field === field)?.type ?? null;

/** The pattern's parts, split as names are: a `{field}` is never split at the `_` of its name. */
function tokenisePattern(pattern: string): string[] {
  const braces: string[] = [];
  const masked = pattern.replace(/\{[^{}]*\}/g, (b) => {
    braces.push(b);
    return String.fromCharCode(0xe000 + braces.length - 1);
  });
  return (masked.match(/[_\-\s.]+|[^_\-\s.]+/gu) ?? []).map((t) =>
    t.replace(/[\ue000-\uf8ff]/g, (c) => braces[c.charCodeAt(0) - 0xe000] ?? c),
  );
}

/** The text every value starts (ends) with, up to its first (after its last) digit. */
function commonAffixes(values: readonly string[]): { before: string; after: string } | null {
  const parts = values.map((v) => AFFIXED_NUMBER.exec(v));
  if (parts.some((p) => p === null)) return null;
  const befores = new Set(parts.map((p) => p![1]));
  const afters = new Set(parts.map((p) => p![3]));
  if (befores.size !== 1 || afters.size !== 1) return null;
  return { before: parts[0]![1]!, after: parts[0]![3]! };
}

/** A field of the pattern's part with its written text around it, when the part is exactly that. */
function singleField(part: string): { before: string; field: string; after: string } | null {
  const m = /^([^{}]*)\{([^{}]+)\}([^{}]*)$/.exec(part);
  return m ? { before: m[1]!, field: m[2]!, after: m[3]! } : null;
}

/**
 * A field of a number type (rep, dah) reads a number only: the text around the number that every name has
 * ("R" of R1, "d" of 7d) goes into the pattern as written.
 */
function numberPart(field: string, values: readonly string[]): string {
  if (values.every(isNumberText)) return `{${field}}`;
  const affixes = commonAffixes(values);
  return affixes ? `${affixes.before}{${field}}${affixes.after}` : `{${field}}`;
}

/** A part the pattern does not name yet: the usual field for what it looks like, or `{*}`. */
function guessPart(values: readonly string[], several: boolean, used: Set<string>): string {
  const take = (field: string) => {
    used.add(field);
    return field;
  };
  const free = (...fields: string[]) => fields.find((f) => !used.has(f));
  // Text every name has is written out (braces cannot be: they would read as a field).
  if (several && new Set(values).size === 1 && !/[\d{}]/.test(values[0]!)) return values[0]!;
  if (values.every((v) => DATE.test(v))) {
    const f = free('harvest_date');
    return f ? `{${take(f)}}` : '{*}';
  }
  const affixes = commonAffixes(values);
  if (affixes) {
    const { before, after } = affixes;
    const role =
      /^(d|days?|dah)$/i.test(after) && before === ''
        ? free('dah')
        : /^(r|rep)$/i.test(before) && after === ''
          ? free('rep')
          : /^(p|plot)$/i.test(before) && after === ''
            ? free('plot')
            : before === '' && after === ''
              ? free('rep', 'plot', 'dah')
              : undefined;
    if (role) return `${before}{${take(role)}}${after}`;
  }
  const f = free('genotype', 'root', 'plot');
  return f ? `{${take(f)}}` : '{*}';
}

export interface PatternSuggestion {
  /** the suggested pattern */
  pattern: string;
  /** how many of the names it reads without a refusal */
  fits: number;
}

/**
 * A pattern that fits the names (issue 25 item 5): the names are cut at their separators (_ - . space); the
 * largest set of names cut alike gives the parts. With `current` cut the same way, its fields keep their places
 * and each number field takes the text around its number into the pattern (`{rep}` on "R1" becomes `R{rep}`);
 * otherwise each part gets the usual field for what it looks like (a word: genotype, then root; a number: rep;
 * 7d: dah; R1: rep; a date: harvest_date), text that every name has is written out, and parts beyond those
 * are skipped with `{*}`. Null when no pattern with a field comes out.
 */
export function suggestNamePattern(names: readonly string[], current?: string): PatternSuggestion | null {
  const bases = names.map(nameWithoutExtension).filter((b) => b.length > 0);
  if (bases.length === 0) return null;
  // The largest set of names cut alike (same separators in the same places).
  const shapes = new Map<string, string[][]>();
  for (const base of bases) {
    const tokens = tokenise(base);
    const shape = tokens.map((t) => (SEPARATOR.test(t) ? t : '\u0000')).join('\u0001');
    shapes.set(shape, [...(shapes.get(shape) ?? []), tokens]);
  }
  const group = [...shapes.values()].sort((a, b) => b.length - a.length)[0]!;
  const width = group[0]!.length;
  const several = group.length > 1;

  const hint = current && compileNamePattern(current).ok ? tokenisePattern(current) : null;
  const aligned =
    hint !== null &&
    hint.length === width &&
    hint.every((part, i) => SEPARATOR.test(part) === SEPARATOR.test(group[0]![i]!)) &&
    hint.every((part, i) => !SEPARATOR.test(part) || part === group[0]![i]);

  const used = new Set<string>();
  const parts: (string | null)[] = Array.from({ length: width }, () => null);
  // The current pattern's fields first, in their places.
  for (let i = 0; i < width; i++) {
    const values = group.map((tokens) => tokens[i]!);
    if (SEPARATOR.test(values[0]!)) {
      parts[i] = values[0]!;
      continue;
    }
    if (!aligned) continue;
    const part = hint[i]!;
    if (!part.includes('{')) {
      if (values.every((v) => v === part)) parts[i] = part;
      continue;
    }
    const single = singleField(part);
    if (!single || single.field === '*') {
      parts[i] = part;
      continue;
    }
    used.add(single.field);
    const carried = values.every(
      (v) =>
        v.startsWith(single.before) &&
        v.endsWith(single.after) &&
        v.length > single.before.length + single.after.length,
    );
    const { before, after } = carried ? single : { before: '', after: '' };
    const cores = values.map((v) => v.slice(before.length, v.length - after.length));
    parts[i] =
      typeOf(single.field) === 'number'
        ? `${before}${numberPart(single.field, cores)}${after}`
        : `${before}{${single.field}}${after}`;
  }
  // Then every part still without one, in order.
  for (let i = 0; i < width; i++) {
    if (parts[i] === null)
      parts[i] = guessPart(
        group.map((tokens) => tokens[i]!),
        several,
        used,
      );
  }
  const pattern = parts.join('');
  const compiled = compileNamePattern(pattern);
  if (!compiled.ok) return null;
  const fits = names.filter((n) => fitName(compiled, n).ok).length;
  return { pattern, fits };
}
