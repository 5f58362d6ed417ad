import crypto from 'node:crypto';

/** The session cookie's name. */
export const SESSION_COOKIE = 'cassavascope_session';

/** A new random session token (256 bits, URL-safe): what the cookie carries. */
export function newSessionToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256, so a copy of the database opens no session. */
export function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** The session token in a `Cookie` header, or null. */
export function sessionTokenOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
  }
  return null;
}

/**
 * The `Set-Cookie` value: HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site writes),
 * Secure when the page came over HTTPS; `maxAgeSeconds` 0 clears it.
 */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  const parts = [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
