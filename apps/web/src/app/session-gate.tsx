import type { User } from '@cassavascope/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Spin } from 'antd';
import { useEffect, useRef, type ReactNode } from 'react';
import { fetchSession, SESSION_QUERY_KEY, type Session } from '../lib/auth';
import { signInCompleted, waitForSignIn } from '../lib/sign-in-required';
import { SignInModal } from '../features/sign-in/sign-in-modal';
import { SignInPage } from '../features/sign-in/sign-in-page';

/**
 * With sign-in on: the sign-in page until someone signs in, then the app; a session that ends later brings the
 * sign-in form up over the current screen (SignInModal) and the calls that found it ended go on afterwards.
 * `header` is the bar shown above the sign-in page (brand and language).
 */
export function SessionGate({ header, children }: { header: ReactNode; children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useQuery({ queryKey: SESSION_QUERY_KEY, queryFn: fetchSession, staleTime: Infinity });
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
          <SignInPage onSignedIn={signedIn} />
        </main>
      </div>
    );
  }
  return (
    <>
      {children}
      <SignInModal onSignedIn={signedIn} />
    </>
  );
}
