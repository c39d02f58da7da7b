import { useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useSession } from '@/lib/session';
import { BlockedBanner } from './blocked-banner';
import { BottomNav } from './bottom-nav';
import { HideBottomNavContext } from './hide-bottom-nav';
import { navHidden, tabsFor } from './nav-model';
import './app-shell.css';

/** Wraps every screen: the blocked-area banner, the screen itself and the bottom navigation. */
export function AppShell() {
  const { pathname } = useLocation();
  const { auth, user } = useSession();
  const signedIn = auth.status === 'authenticated' && user !== null;
  const [screenHidesNav, setScreenHidesNav] = useState(false);
  const showNav = !screenHidesNav && !navHidden(pathname, signedIn);

  return (
    <div className={showNav ? 'app-shell has-bottom-nav' : 'app-shell'}>
      <BlockedBanner />
      <div className="app-main">
        <HideBottomNavContext.Provider value={setScreenHidesNav}>
          <Outlet />
        </HideBottomNavContext.Provider>
      </div>
      {showNav && <BottomNav tabs={tabsFor(user)} pathname={pathname} />}
    </div>
  );
}
