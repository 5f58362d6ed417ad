/** Small readers shared by the normalisers: they pick the first usable alternative field. */
type Raw = Record<string, unknown>;

export function asRecord(value: unknown): Raw {
  return value && typeof value === 'object' ? (value as Raw) : {};
}

export function pickString(raw: Raw, ...keys: string[]): string | null {
  for (const k of keys) {
    const v = raw[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return null;
}

/** Numbers may arrive as numeric strings from other backends ("5.42"). */
export function pickNumber(raw: Raw, ...keys: string[]): number | null {
  for (const k of keys) {
    const v = raw[k];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  }
  return null;
}

export function pickBoolean(raw: Raw, ...keys: string[]): boolean | null {
  for (const k of keys) {
    const v = raw[k];
    if (typeof v === 'boolean') return v;
  }
  return null;
}
