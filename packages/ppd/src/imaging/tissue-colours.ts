/** Colour classes, CIELAB. Cassava flesh: white to cream or yellow, never saturated; leaf tissue: green. */
export function isFlesh(L: number, a: number, b: number): boolean {
  const chroma = Math.hypot(a, b);
  if (L < 55 || chroma > 40 || a > 12 || a < -12) return false;
  if (chroma < 3) return L >= 70; // near-neutral white flesh (highlights, pale cultivars)
  const hue = (Math.atan2(b, a) * 180) / Math.PI;
  return hue >= 55 && hue <= 125;
}

export function isFoliage(L: number, a: number, b: number): boolean {
  const chroma = Math.hypot(a, b);
  if (chroma < 14 || a > -6 || L < 12) return false;
  const hue = (Math.atan2(b, a) * 180) / Math.PI;
  return hue >= 100 && hue <= 170;
}
