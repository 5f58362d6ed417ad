/**
 * Why the engine refuses a photo (`error_code: "not_a_specimen_photo"`): each reason's code and the English words
 * the engine writes into `error_message` ("Not a specimen photo: <words>. <what works>"). The web app finds the
 * reason by its words and shows it translated (results.json `failure.reason.<code>`), never the raw code.
 */
export const REFUSAL_REASONS = {
  field_or_canopy: 'foliage all round: a field or canopy photo, not specimens on a plain background',
  leaves_cut_by_frame: 'leaves cut off by the frame: leaves on the plant, not detached leaves on a plain background',
  leaves_fill_frame:
    'leaves fill the frame: leaves on the plant or a canopy, not a detached leaf on a plain background',
  leaves_on_plant:
    'leaves with foliage, soil or grass all round: leaves on the plant, not a detached leaf on a plain background',
  busy_background: 'a busy, textured background (soil, a basket, foliage), not specimens on a plain background',
  document: 'grey or black marks on paper, no cream flesh or leaf: a document, print or drawing, not specimens',
  whole_roots: 'whole roots with cut ends showing (a heap or a basket), not slices laid flat',
  no_specimen_tissue: 'no cut root slice (cream flesh) and no leaf (green tissue) on a plain background',
} as const;

export type RefusalReason = keyof typeof REFUSAL_REASONS;

/** The reason a refusal's `error_message` gives, or null when it names none of them (another engine's words). */
export function refusalReasonOf(message: string | null | undefined): RefusalReason | null {
  if (!message) return null;
  for (const [code, words] of Object.entries(REFUSAL_REASONS) as [RefusalReason, string][])
    if (message.includes(words)) return code;
  return null;
}
