const COT_55 = 1 / Math.tan((55 * Math.PI) / 180);
const TAN_10 = Math.tan((10 * Math.PI) / 180);
const TAN_80 = Math.tan((80 * Math.PI) / 180);

/** Colour classes, CIELAB. Cassava flesh: white to cream or yellow, never saturated; leaf tissue: green. */
export function isFlesh(L: number, a: number, b: number): boolean {
  const chroma2 = a * a + b * b; // squared: Math.hypot is slow, and this runs per pixel
  if (L < 55 || chroma2 > 40 * 40 || a > 12 || a < -12) return false;
  if (chroma2 < 3 * 3) return L >= 70; // near-neutral white flesh (highlights, pale cultivars)
  // hue 55-125 degrees, without atan2 (this runs per pixel): b > 0 and |a| <= b cot 55
  return b > 0 && Math.abs(a) <= COT_55 * b;
}

export function isFoliage(L: number, a: number, b: number): boolean {
  if (a * a + b * b < 14 * 14 || a > -6 || L < 12) return false;
  // hue 100-170 degrees with a < 0, without atan2: tan 10 <= b / -a <= tan 80
  return b >= TAN_10 * -a && b <= TAN_80 * -a;
}

/**
 * Flesh as the scene check reads it: cream flesh, or pale grey flesh under a cool or greenish cast (the real
 * CBSD crops of one session: L* 58-72, a* -6 to -2, b* 1-8, chroma 3-8) that is not the background's own colour (paper
 * between the letters of a word is pale grey too). Not used to grow specimens (a grey shadow is this colour
 * too), only to name what a found specimen is.
 */
export function isSliceTissue(L: number, a: number, b: number, bgL: number, bgA: number, bgB: number): boolean {
  if (isFlesh(L, a, b)) return true;
  const c2 = a * a + b * b;
  if (L < 55 || c2 >= 8 * 8 || c2 < 3 * 3) return false;
  return Math.abs(L - bgL) >= 8 || Math.hypot(a - bgA, b - bgB) >= 3;
}

/**
 * Saturated blue to violet (hue 225-320 degrees, chroma >= 18): cloth, boards, gloves, never root tissue. PPD's
 * blue-black vascular streaks are dark and nearly neutral (chroma under 12), so they stay tissue.
 */
export function isClothBlue(a: number, b: number): boolean {
  // b < 0 and the hue between 225 and 320 degrees: -b >= -a tan(45) (a < 0) or -b >= a tan(40) (a > 0)
  return b < -10 && a * a + b * b >= 18 * 18 && -b >= -a && -b >= 0.84 * a;
}
