import type { User } from '@cassavascope/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Spin } from 'antd';
import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { fetchSession, SESSION_QUERY_KEY, useSignInRequired, type Session } from '../lib/auth';
import { signInCompleted, waitForSignIn } from '../lib/sign-in-required';

// Loaded when first needed: a laptop with sign-in off never downloads the forms (and the first screen comes sooner).
const SignInModal = lazy(() => import('../features/sign-in/sign-in-modal').then((m) => ({ default: m.SignInModal })));
const SignInPage = lazy(() => import('../features/sign-in/sign-in-page').then((m) => ({ default: m.SignInPage })));

/**
 * With sign-in on: the sign-in page until someone signs in, then the app; a session that ends later brings the
 * sign-in form up over the current screen (SignInModal) and the calls that found it ended go on afterwards.
 * `header` is the bar shown above the sign-in page (brand and language).
 */
export function SessionGate({ header, children }: { header: ReactNode; children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useQuery({ queryKey: SESSION_QUERY_KEY, queryFn: fetchSession, staleTime: Infinity });
  const signInRequired = useSignInRequired();
  const signedIn = (user: User) => {
    queryClient.setQueryData<Session>(SESSION_QUERY_KEY, { auth: true, user });
    signInCompleted();
  };
  // Once someone has worked here, a session found ended on a later check (a refetch of the session) is handled
  // like any call's 401: the sign-in form over the screen, never the sign-in page in place of the work.
  const workedHere = useRef(false);
  if (session.data?.user) workedHere.current = true;
  const ended = !!session.data?.auth && !session.data.user && workedHere.current && !session.data.signedOut;
  useEffect(() => {
    if (ended) void waitForSignIn();
  }, [ended]);
  if (session.isPending) {
    return (
      <div className="section-loading">
        <Spin size="large" />
      </div>
    );
  }
  // A server that cannot be reached: the app itself says so (the Connection screen works without a session).
  if (session.data?.auth && !session.data.user && !ended) {
    return (
      <div className="app-layout">
        {header}
        <main className="app-main">
          <Suspense fallback={<Spin size="large" />}>
            <SignInPage onSignedIn={signedIn} />
          </Suspense>
        </main>
      </div>
    );
  }
  return (
    <>
      {children}
      {signInRequired ? (
        <Suspense fallback={null}>
          <SignInModal onSignedIn={signedIn} />
        </Suspense>
      ) : null}
    </>
  );
}
