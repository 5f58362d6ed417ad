/**
 * Hand-over between two sections (there are no URL routes to carry it): a folder card, or the sample set, names
 * the folder whose images the Images screen should show when it opens next.
 */
let pendingFolderId: number | null = null;

export function focusImagesOnFolder(folderId: number): void {
  pendingFolderId = folderId;
}

/** The folder to show, if one was handed over (reading does not clear it: render may run twice). */
export function peekImagesFocus(): number | null {
  return pendingFolderId;
}

/** Called once the Images screen has taken the hand-over. */
export function clearImagesFocus(): void {
  pendingFolderId = null;
}
