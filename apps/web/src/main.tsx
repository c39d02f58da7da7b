import { StrictMode, startTransition, useEffect, useLayoutEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { createRouter, routes } from './app/router';
import { replayEarlyInput, takeEarlyInput } from './lib/early-input';
import { loadMatchedRoutes } from './lib/lazy-routes';
import { readStoredUser } from './lib/storage';
import './styles.css';

/**
 * Starts the app in #root. A page the build prerendered (scripts/prerender.ts) is marked
 * `hydrate` (rendered as a signed-out visitor's browser first renders it) or `frame` (the booth
 * page's loading frame); its route module is loaded first, so the first render is the screen
 * itself, as in the HTML, and not the loading fallback. A hydrated page loads this script only
 * once it has painted. (Not a top-level await: chunks import from this entry, and the bundler
 * would split the entry into many files to allow one.)
 */
/**
 * Marks the document once React has taken over the page: a prerendered page is painted before
 * its script, and a click before this point is the plain HTML's (tests wait for the mark).
 */
function MarkInteractive({ onTakenOver }: { onTakenOver: () => void }) {
  // In the commit that put the app's page in place, before the browser handles another event:
  // a key typed next goes to the field the visitor was in, not to the page that is gone.
  useLayoutEffect(() => {
    onTakenOver();
  }, [onTakenOver]);
  useEffect(() => {
    document.documentElement.dataset.interactive = 'true';
  }, []);
  return null;
}

async function start(container: HTMLElement): Promise<void> {
  const prerendered = container.dataset.prerendered;
  if (prerendered) await loadMatchedRoutes(routes, window.location.pathname);
  const router = createRouter();
  // What was typed on a page painted before the app (the booth page's sign-in screen) goes
  // into the app's own page once it has rendered.
  const early = takeEarlyInput();
  let replayed = false;
  const takenOver = () => {
    if (replayed) return;
    replayed = true;
    // The loader hid the HTML's phone entry for a sign-in resumed at a later step.
    delete container.dataset.resuming;
    replayEarlyInput(container, early);
  };
  const app = (
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
      <MarkInteractive onTakenOver={takenOver} />
    </StrictMode>
  );
  // A stored session or the staff banner's query render differently from the signed-out HTML,
  // so those (and the frame) are rendered afresh over it instead of hydrated.
  // So is a page the visitor typed in or submitted before the app started: the replay puts that
  // into the app's own fields.
  const typed =
    early !== undefined &&
    (early.values.length > 0 || early.submit >= 0 || (early.focused ?? -1) >= 0);
  const hydrate =
    prerendered === 'hydrate' &&
    !typed &&
    readStoredUser() === null &&
    // A sign-in resumed at Create Your Account or Enter OTP renders another step than the HTML's.
    container.dataset.resuming === undefined &&
    !new URLSearchParams(window.location.search).has('blocked');
  // In a transition: React renders in slices and yields between them, so taking the page over
  // is no long task that holds a tap back (what the HTML shows stays until the commit).
  startTransition(() => {
    if (hydrate) {
      // From here React handles the page's events itself (an event on the markup it is hydrating
      // hurries the hydration, then reaches the app): recorded as well, it would happen twice.
      early?.stop();
      hydrateRoot(container, app);
    } else createRoot(container).render(app);
  });
}

void start(document.getElementById('root')!);
