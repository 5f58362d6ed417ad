import { loginResponseSchema, meResponseSchema, ROLES, type Role, type User } from '@cassavascope/contract';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest, ApiError } from './api-client';
import { isSignInRequired, subscribeSignInRequired } from './sign-in-required';

/**
 * Who is signed in and what they may do (api.md, "Security and sign-in"). With sign-in off (a laptop on
 * loopback) there is no user and everything is allowed. Features hide or disable what the role cannot do with
 * `useCan()`, showing `reason(action)` beside a disabled control.
 */
export interface Session {
  /** sign-in is on at this server */
  auth: boolean;
  user: User | null;
  /** the user signed out here (the sign-in page follows), as opposed to a session found ended */
  signedOut?: boolean;
}

/**
 * What a control does: reading and exporting; uploading, organising, running tasks and reviewing; managing users;
 * checking every stored file now (the scheduled check runs by itself).
 */
export type Action = 'read' | 'change' | 'manage_users' | 'check_storage';
const NEEDED: Record<Action, Role> = {
  read: 'viewer',
  change: 'researcher',
  manage_users: 'admin',
  check_storage: 'admin',
};
const rank = (role: Role) => ROLES.indexOf(role);

export const SESSION_QUERY_KEY = ['auth', 'session'] as const;

/** GET /auth/me/: a 401 means sign-in is on and nobody is signed in (this call does not wait for a sign-in). */
export async function fetchSession(): Promise<Session> {
  try {
    const me = await apiRequest<{ user: User | null; auth?: boolean }>('/auth/me/', {
      schema: meResponseSchema,
      waitForSignIn: false,
    });
    return { auth: me.auth !== false, user: me.user };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { auth: true, user: null };
    throw err;
  }
}

export function can(session: Session, action: Action): boolean {
  if (!session.auth) return true;
  return session.user !== null && rank(session.user.role) >= rank(NEEDED[action]);
}

/** The current session (sign-in off until the server has said otherwise). */
export function useSession(): Session {
  const { data } = useQuery({ queryKey: SESSION_QUERY_KEY, queryFn: fetchSession, staleTime: Infinity });
  return data ?? { auth: false, user: null };
}

/** `can(action)`, and why not: a sentence naming the role it needs, for a disabled control's tooltip. */
export function useCan(): { can: (action: Action) => boolean; reason: (action: Action) => string | undefined } {
  const session = useSession();
  const { t } = useTranslation('auth');
  return {
    can: (action) => can(session, action),
    reason: (action) => (can(session, action) ? undefined : t('needs_role', { role: t(`roles.${NEEDED[action]}`) })),
  };
}

/** True while a call waits for the user to sign in again (the shell shows the sign-in form). */
export function useSignInRequired(): boolean {
  return useSyncExternalStore(subscribeSignInRequired, isSignInRequired);
}

export async function signIn(username: string, password: string): Promise<User> {
  const res = await apiRequest<{ user: User }>('/auth/login/', {
    method: 'POST',
    body: { username, password },
    waitForSignIn: false,
    schema: loginResponseSchema,
  });
  return res.user;
}

export async function signOut(): Promise<void> {
  await apiRequest('/auth/logout/', { method: 'POST', waitForSignIn: false });
}
