import { z } from 'zod';

/**
 * Sample metadata (api.md "Sample metadata"): named fields per image, typed number, date (YYYY-MM-DD) or text.
 * The typing rules live here so the server (PATCH, pattern, sheet) and the web (edit form) apply the same ones.
 */

export const METADATA_FIELD_MAX = 40;
export const METADATA_TEXT_MAX = 200;
/** Fields one image may carry (a guard against a sheet with thousands of columns). */
export const METADATA_FIELDS_PER_IMAGE = 50;
export const METADATA_FIELD_PATTERN = /^[A-Za-z0-9_]{1,40}$/;

export type MetadataValue = number | string;
export type ImageMetadata = Record<string, MetadataValue>;

export type MetadataType = 'number' | 'date' | 'text';

/**
 * The well-known fields, in the order screens and exports show them, with their fixed type (null: the general
 * rule, a value that looks like a number is a number) and the column name of the export (ontology / BrAPI
 * names, so the file imports into a breeding database without renaming).
 */
export const WELL_KNOWN_FIELDS = [
  { field: 'genotype', type: null, column: 'germplasmName' },
  { field: 'plot', type: null, column: 'plotNumber' },
  { field: 'rep', type: 'number', column: 'replicate' },
  { field: 'root', type: null, column: 'rootNumber' },
  { field: 'dah', type: 'number', column: 'days_after_harvest' },
  { field: 'harvest_date', type: 'date', column: 'harvestDate' },
] as const satisfies readonly { field: string; type: MetadataType | null; column: string }[];

export type WellKnownField = (typeof WELL_KNOWN_FIELDS)[number]['field'];

/** The cassava trait ontology's PPD variable: the export's PPD column carries this id. */
export const PPD_TRAIT_ID = 'CO_334:0000077';

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
// Control characters and bidirectional overrides (as names refuse them).
// eslint-disable-next-line no-control-regex
const UNSAFE_TEXT = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

export function isRealDate(text: string): boolean {
  if (!DATE_TEXT.test(text)) return false;
  const d = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

export function fieldNameProblem(field: string): string | null {
  return METADATA_FIELD_PATTERN.test(field)
    ? null
    : `a field name is letters, digits and _ (at most ${METADATA_FIELD_MAX} characters)`;
}

export type TypedValue = { ok: true; value: MetadataValue | null } | { ok: false; problem: string };

/**
 * A raw value (JSON number or text from a name, a sheet or a form) as it is stored: a number when it looks like
 * one, a date string when it is a real YYYY-MM-DD, else trimmed text. `null` and empty text mean "no value".
 * The well-known `rep` and `dah` must be non-negative numbers and `harvest_date` a date.
 */
export function typeMetadataValue(field: string, raw: unknown): TypedValue {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  let value: MetadataValue;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return { ok: false, problem: 'must be a finite number' };
    value = raw;
  } else if (typeof raw === 'string') {
    const text = raw.normalize('NFC').trim();
    if (text === '') return { ok: true, value: null };
    if (Array.from(text).length > METADATA_TEXT_MAX)
      return { ok: false, problem: `at most ${METADATA_TEXT_MAX} characters` };
    if (UNSAFE_TEXT.test(text)) return { ok: false, problem: 'control characters are not allowed' };
    if (NUMBER_TEXT.test(text) && Number.isFinite(Number(text))) value = Number(text);
    else if (DATE_TEXT.test(text) && !isRealDate(text)) return { ok: false, problem: 'not a real date YYYY-MM-DD' };
    else value = text;
  } else {
    return { ok: false, problem: 'must be a number or text' };
  }
  const fixed = WELL_KNOWN_FIELDS.find((w) => w.field === field)?.type ?? null;
  if (fixed === 'number' && (typeof value !== 'number' || value < 0))
    return { ok: false, problem: 'must be a non-negative number' };
  if (fixed === 'date' && (typeof value !== 'string' || !isRealDate(value)))
    return { ok: false, problem: 'must be a date YYYY-MM-DD' };
  return { ok: true, value };
}

/** The type a stored value has (numbers are numbers, real YYYY-MM-DD strings dates, the rest text). */
export function metadataTypeOf(value: MetadataValue): MetadataType {
  if (typeof value === 'number') return 'number';
  return isRealDate(value) ? 'date' : 'text';
}

/** A piece of a file-name pattern: text that must appear as written, a `{field}`, or `{*}` (a part not kept). */
export type NamePatternPiece = { literal: string } | { field: string } | { skip: true };

/** The regular expression of pieces: each field (and `{*}`) the shortest run that lets the rest match. */
export function namePatternSource(pieces: readonly NamePatternPiece[]): string {
  return pieces
    .map((p) => ('literal' in p ? p.literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : 'field' in p ? '(.+?)' : '.+?'))
    .join('');
}

/**
 * `{field}` placeholders of a file-name pattern; `{*}` matches a part that is not kept. Returns the regular
 * expression (each field the shortest run that lets the rest match), its pieces in order, or what is wrong
 * with the pattern.
 */
export function compileNamePattern(
  pattern: string,
): { ok: true; regex: RegExp; fields: string[]; pieces: NamePatternPiece[] } | { ok: false; problem: string } {
  const fields: string[] = [];
  const pieces: NamePatternPiece[] = [];
  const addLiteral = (c: string) => {
    const last = pieces[pieces.length - 1];
    if (last && 'literal' in last) last.literal += c;
    else pieces.push({ literal: c });
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '}') return { ok: false, problem: `unbalanced "}" at position ${i + 1}` };
    if (c !== '{') {
      addLiteral(c);
      i += 1;
      continue;
    }
    const end = pattern.indexOf('}', i + 1);
    const nextOpen = pattern.indexOf('{', i + 1);
    if (end < 0 || (nextOpen >= 0 && nextOpen < end))
      return { ok: false, problem: `unbalanced "{" at position ${i + 1}` };
    const name = pattern.slice(i + 1, end);
    if (name === '*') pieces.push({ skip: true });
    else {
      const problem = fieldNameProblem(name);
      if (problem) return { ok: false, problem: `{${name}}: ${problem}` };
      if (fields.includes(name)) return { ok: false, problem: `{${name}} appears twice` };
      fields.push(name);
      pieces.push({ field: name });
    }
    i = end + 1;
  }
  if (fields.length === 0) return { ok: false, problem: 'the pattern has no {field}' };
  return { ok: true, regex: new RegExp(`^${namePatternSource(pieces)}$`, 'su'), fields, pieces };
}

/** A file name without its extension (`a.b.jpg` -> `a.b`; a leading dot is not an extension). */
export function nameWithoutExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

// ---- request and response bodies ----

export const metadataValueSchema = z.union([z.number(), z.string()]);
export const imageMetadataSchema = z.record(z.string(), metadataValueSchema).meta({
  description: 'the sample fields: numbers, YYYY-MM-DD dates or text; {} when none',
  examples: [{ genotype: 'TME419', rep: 2, dah: 7, root: 'R1' }],
});

export const metadataParseRequestSchema = z.object({
  pattern: z.string().max(500),
  image_ids: z.array(z.number().int().min(1)).max(100_000).optional(),
  folder_id: z.number().int().min(1).nullable().optional(),
  apply: z.boolean().optional(),
});

export const metadataParseResponseSchema = z.object({
  matched: z.array(
    z.object({
      image_id: z.number().int(),
      name: z.string(),
      metadata: imageMetadataSchema,
      problems: z
        .record(z.string(), z.string())
        .optional()
        .meta({ description: 'values refused for their field (apply would be a 400)' }),
    }),
  ),
  unmatched: z.array(z.object({ image_id: z.number().int(), name: z.string() })),
  applied: z.number().int().optional().meta({ description: 'with apply: how many images got their fields' }),
});
export type MetadataParseResponse = z.infer<typeof metadataParseResponseSchema>;

export const SHEET_ROW_STATUSES = ['applied', 'unknown_file', 'ambiguous', 'bad_value'] as const;
export type SheetRowStatus = (typeof SHEET_ROW_STATUSES)[number];

/** Most image ids one sheet request may be scoped to (`image_ids`), as for a pattern. */
export const SHEET_IMAGE_IDS_MAX = 100_000;

/**
 * The text fields of a `POST /images/metadata/sheet/` multipart request (the sheet itself is the `file` part).
 * `image_ids` (an addition): the sheet's names are looked up among these images only (e.g. the ones an upload just
 * stored); `dry_run` (an addition): report every row, store nothing.
 */
export const metadataSheetFieldsSchema = z
  .object({
    folder_id: z
      .string()
      .regex(/^\d{1,15}$/, 'must be a folder id')
      .optional(),
    image_ids: z
      .string()
      .regex(/^\d{1,15}(,\d{1,15})*$/, 'must be image ids separated by commas')
      .transform((s) => s.split(',').map(Number))
      .refine((ids) => ids.length <= SHEET_IMAGE_IDS_MAX, `at most ${SHEET_IMAGE_IDS_MAX} ids`)
      .optional()
      .meta({ description: 'comma-separated image ids: the names are looked up among these images only' }),
    partial: z.enum(['0', '1', 'true', 'false']).optional(),
    dry_run: z
      .enum(['0', '1', 'true', 'false'])
      .optional()
      .meta({ description: '1: report every row as the call would, store nothing' }),
  })
  .refine((f) => f.folder_id === undefined || f.image_ids === undefined, {
    message: 'give image_ids or folder_id, not both',
    path: ['image_ids'],
  });

export const metadataSheetResponseSchema = z.object({
  applied: z.number().int().min(0),
  committed: z.boolean().meta({
    description: 'false when a bad_value kept every row from being applied (send partial=1 to apply the rest)',
  }),
  rows: z.array(
    z.object({
      row: z.number().int().meta({ description: "the sheet's row number (the header is row 1)" }),
      name: z.string(),
      status: z.enum(SHEET_ROW_STATUSES),
      detail: z.string(),
      image_id: z.number().int().nullable().optional(),
    }),
  ),
  dry_run: z
    .boolean()
    .optional()
    .meta({ description: 'with dry_run=1: the rows say what would happen; nothing stored' }),
});
export type MetadataSheetResponse = z.infer<typeof metadataSheetResponseSchema>;

export const imagePatchSchema = z
  .object({
    metadata: z.record(z.string(), z.union([metadataValueSchema, z.null()])).optional(),
    name: z.string().optional(),
  })
  .meta({
    description: 'metadata: fields to set or replace (null removes one); name: a new name under the upload rules',
  });

/** `GET /predictions/groups/?values=1` gives each result's value when the query selects at most this many. */
export const GROUP_VALUES_MAX = 5000;

/**
 * A group's 95 % interval is given from this many images on: with two, Student's t has one degree of freedom
 * (12.71) and the interval spans far past the 0-10 scale ("-15.37 - 21.60"), which says nothing.
 */
export const GROUP_CI_MIN_IMAGES = 3;

export const resultGroupSchema = z.object({
  key: z.record(z.string(), z.union([metadataValueSchema, z.null()])),
  images: z.number().int().min(0),
  specimens: z.number().int().min(0),
  mean: z.number().nullable(),
  sd: z.number().nullable().meta({ description: 'sample standard deviation (n - 1); null with fewer than 2 images' }),
  ci95: z
    .tuple([z.number(), z.number()])
    .nullable()
    .meta({
      description: `95 % interval of the mean (Student's t); null with fewer than ${GROUP_CI_MIN_IMAGES} images`,
    }),
  bands: z.object({ healthy: z.number().int(), mild: z.number().int(), severe: z.number().int() }),
  values: z
    .array(z.number())
    .optional()
    .meta({
      description: `with values=true: the reviewed PPD of each result of the group, ascending (left out when the query selects more than ${GROUP_VALUES_MAX} scored results)`,
    }),
});
export type ResultGroup = z.infer<typeof resultGroupSchema>;

/** The export column of a field: the ontology / BrAPI name of a well-known field, else the field's own name. */
export function exportColumnOf(field: string): string {
  return WELL_KNOWN_FIELDS.find((w) => w.field === field)?.column ?? field;
}

/** The export's column holding the (reviewed) PPD value, named by the trait id so a breeding database maps it. */
export const PPD_TRAIT_COLUMN = `PPD|${PPD_TRAIT_ID}`;
