/**
 * Closes a dialog a moment after its work succeeded, unless it is opened or closed again first (`cancel`). A timer
 * left running once closed the dialog of the next upload, started within the delay, with its failed files.
 */
export function createAutoClose(close: () => void, delayMs: number) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return {
    /** Closes after `delayMs`; a later schedule starts the wait again. */
    schedule() {
      cancel();
      timer = setTimeout(() => {
        timer = null;
        close();
      }, delayMs);
    },
    cancel,
  };
}
