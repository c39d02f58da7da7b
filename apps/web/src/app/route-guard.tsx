import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { decideRoute } from '@/lib/route-guard';
import { useSession } from '@/lib/session';
import { rememberRedirect } from '@/lib/storage';

/** Applies the spec's route guard to every route below it. */
export function RouteGuard() {
  const location = useLocation();
  const { auth, acknowledgeSignOut } = useSession();
  const fullPath = `${location.pathname}${location.search}${location.hash}`;
  const decision = decideRoute(location.pathname, fullPath, auth);
  const remember = decision.kind === 'redirect' ? decision.remember : undefined;

  const landedAfterSignOut =
    decision.kind === 'allow' && auth.status === 'anonymous' && auth.signedOut;
  useEffect(() => {
    if (landedAfterSignOut) acknowledgeSignOut();
  }, [landedAfterSignOut, acknowledgeSignOut]);
  useEffect(() => {
    if (remember) rememberRedirect(remember);
  }, [remember]);

  if (decision.kind === 'wait') return <PageSpinner label="Checking your session…" />;
  if (decision.kind === 'redirect') {
    return <Navigate to={decision.to} replace />;
  }
  return <Outlet />;
}
