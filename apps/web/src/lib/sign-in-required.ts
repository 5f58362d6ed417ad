/**
 * When a session ends while someone works (a 401 `not_signed_in` from any call), the call waits here instead of
 * failing: the shell shows the sign-in form over the current screen, and once signed in every waiting call is
 * sent again. Nothing on the screen is reset, so nothing typed is lost.
 */
type Listener = () => void;

let waiters: (() => void)[] = [];
const listeners = new Set<Listener>();
const notify = () => listeners.forEach((l) => l());

/** Resolves once someone has signed in again (the caller then repeats its request). */
export function waitForSignIn(): Promise<void> {
  return new Promise((resolve) => {
    waiters.push(resolve);
    if (waiters.length === 1) notify();
  });
}

/** Signed in again: every waiting call goes on. */
export function signInCompleted(): void {
  const resolved = waiters;
  waiters = [];
  resolved.forEach((r) => r());
  notify();
}

/** True while calls wait for a sign-in (the sign-in modal is open). */
export function isSignInRequired(): boolean {
  return waiters.length > 0;
}

export function subscribeSignInRequired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
