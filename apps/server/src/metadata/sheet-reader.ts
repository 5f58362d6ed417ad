import ExcelJS from 'exceljs';
import { ApiError } from '../http/errors.js';

/** One cell as read: text, a number, a date (Excel date cells) or nothing. */
export type SheetCell = string | number | Date | null;

/** The sheet's rows, the header first; `row` is the row number the spreadsheet shows (1-based). */
export interface SheetRows {
  header: string[];
  rows: { row: number; cells: SheetCell[] }[];
}

/** The most data rows one sheet may carry (a field book of a large trial has a few thousand). */
export const SHEET_ROWS_MAX = 100_000;

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const utf8 = new TextDecoder('utf-8', { fatal: true });

const unsupported = () =>
  new ApiError(415, 'unsupported_file_type', 'The sheet must be a CSV file (UTF-8) or an Excel workbook (.xlsx)', {
    fields: { file: 'must be CSV (UTF-8) or XLSX' },
  });

/** Reads a CSV (UTF-8, with or without BOM; comma, semicolon or tab separated) or the first sheet of an XLSX. */
export async function readSheet(bytes: Buffer): Promise<SheetRows> {
  const all = bytes.subarray(0, 4).equals(ZIP_MAGIC) ? await readXlsx(bytes) : readCsv(bytes);
  const nonEmpty = all.filter((r) => r.cells.some((c) => c !== null && c !== ''));
  const [first, ...rows] = nonEmpty;
  if (!first)
    throw new ApiError(400, 'invalid', 'The sheet is empty', { fields: { file: 'the sheet has no header row' } });
  if (rows.length > SHEET_ROWS_MAX) {
    throw new ApiError(400, 'invalid', `The sheet has more than ${SHEET_ROWS_MAX} rows`, {
      fields: { file: `at most ${SHEET_ROWS_MAX} rows` },
    });
  }
  return { header: first.cells.map((c) => (c === null ? '' : String(c).trim())), rows };
}

async function readXlsx(bytes: Buffer): Promise<SheetRows['rows']> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw unsupported();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: SheetRows['rows'] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: SheetCell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cellValue(cell.value);
    });
    rows.push({ row: rowNumber, cells: Array.from(cells, (c) => c ?? null) });
  });
  return rows;
}

/** An ExcelJS cell value as text, number or date: formulas give their result, rich text its plain text. */
function cellValue(value: ExcelJS.CellValue): SheetCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || value instanceof Date) return value;
  if (typeof value === 'boolean') return String(value);
  if ('result' in value) return cellValue(value.result as ExcelJS.CellValue);
  if ('richText' in value) return value.richText.map((t) => t.text).join('');
  if ('text' in value) return String(value.text);
  return null;
}

function readCsv(bytes: Buffer): SheetRows['rows'] {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw unsupported();
  }
  if (text.includes('\u0000')) throw unsupported();
  text = text.replace(/^\uFEFF/, '');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  // Excel in many locales saves "CSV" with semicolons; a tab-separated export is also common.
  const separator = firstLine.includes(',')
    ? ','
    : firstLine.includes(';')
      ? ';'
      : firstLine.includes('\t')
        ? '\t'
        : ',';
  return parseCsv(text, separator).map((cells, i) => ({ row: i + 1, cells }));
}

/** RFC 4180: quoted cells may hold separators, quotes ("") and line breaks. */
export function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === separator) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
