import { createContext, useContext, useEffect } from 'react';

/** Set by the app shell: a screen that stands alone asks for the bottom navigation to go. */
export const HideBottomNavContext = createContext<(hidden: boolean) => void>(() => {});

/**
 * Hides the bottom navigation while the calling screen is shown: for a screen whose tabs would
 * lead nowhere (the notice after an account is deleted, while this browser still holds its
 * session until the person leaves).
 */
export function useHideBottomNav(): void {
  const setHidden = useContext(HideBottomNavContext);
  useEffect(() => {
    setHidden(true);
    return () => setHidden(false);
  }, [setHidden]);
}
