export type UptimeParts =
  | { unit: 'dhm'; d: number; h: number; m: number }
  | { unit: 'hm'; h: number; m: number }
  | { unit: 'ms'; m: number; s: number };

/** Server uptime in its two largest units. */
export function uptimeParts(seconds: number): UptimeParts {
  const total = Math.max(0, Math.floor(seconds));
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  if (d > 0) return { unit: 'dhm', d, h, m };
  if (h > 0) return { unit: 'hm', h, m };
  return { unit: 'ms', m, s: total % 60 };
}
