import {
  fieldNameProblem,
  nameWithoutExtension,
  typeMetadataValue,
  WELL_KNOWN_FIELDS,
  type ImageMetadata,
  type MetadataSheetResponse,
} from '@cassavascope/contract';
import { ApiError } from '../http/errors.js';
import { nfc } from '../names/names.js';
import type { FieldChange } from './metadata.repository.js';
import type { SheetCell, SheetRows } from './sheet-reader.js';

const NAME_COLUMNS = ['name', 'file_name', 'filename'];

type RowReport = MetadataSheetResponse['rows'][number];

/** What a sheet would do: a report per row and the changes of the rows that apply. */
export interface SheetPlan {
  rows: RowReport[];
  changes: FieldChange[];
  badValues: number;
}

/**
 * The sheet's columns: which one holds the file name, and the field each other column sets. A header that is
 * a well-known field in another case (`Genotype`) names that field; any other header must be a field name.
 */
function columnsOf(header: string[]): { nameColumn: number; fields: (string | null)[] } {
  const nameColumn = header.findIndex((h) => NAME_COLUMNS.includes(h.toLowerCase()));
  if (nameColumn < 0) {
    throw new ApiError(400, 'invalid', 'The sheet needs a "name" (or "file_name") column', {
      fields: { file: 'no name or file_name column' },
    });
  }
  const problems: string[] = [];
  const fields = header.map((h, i) => {
    if (i === nameColumn || h === '') return null;
    const known = WELL_KNOWN_FIELDS.find((w) => w.field === h.toLowerCase());
    if (known) return known.field;
    if (fieldNameProblem(h)) problems.push(`"${h}"`);
    return h;
  });
  if (problems.length > 0) {
    throw new ApiError(400, 'invalid', `Column names must be letters, digits and _: ${problems.join(', ')}`, {
      fields: { file: `bad column names: ${problems.join(', ')}` },
    });
  }
  return { nameColumn, fields };
}

/** A cell as a raw metadata value: an Excel date becomes its UTC day. */
function rawValue(cell: SheetCell): unknown {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? 'invalid date' : cell.toISOString().slice(0, 10);
  return cell;
}

function cellText(cell: SheetCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  return cell instanceof Date ? cell.toISOString().slice(0, 10) : String(cell);
}

/**
 * Matches each row to an image by its name (exactly, or without the extension when the sheet leaves it off)
 * among `images`, and types its values. Empty cells leave a field as it is.
 */
export function planSheet(sheet: SheetRows, images: { id: number; name: string }[]): SheetPlan {
  const { nameColumn, fields } = columnsOf(sheet.header);
  const byName = new Map<string, number[]>();
  const byStem = new Map<string, number[]>();
  for (const img of images) {
    byName.set(img.name, [...(byName.get(img.name) ?? []), img.id]);
    const stem = nameWithoutExtension(img.name);
    byStem.set(stem, [...(byStem.get(stem) ?? []), img.id]);
  }
  const plan: SheetPlan = { rows: [], changes: [], badValues: 0 };
  for (const { row, cells } of sheet.rows) {
    const name = nfc(cellText(cells[nameColumn]).trim());
    const ids = byName.get(name) ?? byStem.get(name) ?? [];
    if (ids.length === 0) {
      plan.rows.push({
        row,
        name,
        status: 'unknown_file',
        detail: name ? `No image is named "${name}"` : 'The name cell is empty',
        image_id: null,
      });
      continue;
    }
    if (ids.length > 1) {
      plan.rows.push({
        row,
        name,
        status: 'ambiguous',
        detail: `${ids.length} images have this name (in different folders): choose a folder`,
        image_id: null,
      });
      continue;
    }
    const set: ImageMetadata = {};
    const problems: string[] = [];
    fields.forEach((field, i) => {
      if (field === null) return;
      const typed = typeMetadataValue(field, rawValue(cells[i] ?? null));
      if (!typed.ok) problems.push(`${field}: ${typed.problem} (got "${cellText(cells[i])}")`);
      else if (typed.value !== null) set[field] = typed.value;
    });
    const imageId = ids[0]!;
    if (problems.length > 0) {
      plan.badValues += 1;
      plan.rows.push({ row, name, status: 'bad_value', detail: problems.join('; '), image_id: imageId });
      continue;
    }
    plan.changes.push({ imageId, set, remove: [] });
    // The fields set, comma-separated ('' when the row had no values): the screen shows them translated.
    plan.rows.push({ row, name, status: 'applied', detail: Object.keys(set).join(', '), image_id: imageId });
  }
  return plan;
}
