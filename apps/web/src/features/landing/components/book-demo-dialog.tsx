import { type MouseEvent, useEffect, useLayoutEffect, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { appConfig } from '@/config/app-config';
import { CloseIcon } from './icons';

/** The embedded demo form; mounted afresh on every opening, so the spinner shows each time. */
function DemoForm() {
  const [loaded, setLoaded] = useState(false);
  return (
    <div className="lp-demo-frame" aria-busy={!loaded}>
      {!loaded && (
        <div className="lp-demo-loading">
          <Spinner label="Loading the demo form…" />
        </div>
      )}
      <iframe
        src={appConfig.demoFormUrl}
        title="Book a demo form"
        onLoad={() => setLoaded(true)}
        className={loaded ? 'is-loaded' : undefined}
      />
    </div>
  );
}

export function BookDemoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title="Book a demo" onClose={onClose} className="lp-demo-dialog">
      <button
        type="button"
        className="lp-icon-btn lp-demo-close"
        onClick={onClose}
        aria-label="Close"
      >
        <CloseIcon />
      </button>
      <p className="lp-demo-intro">
        Tell us a little about your venue and our team will reach out to schedule your demo. Prefer
        e-mail? Write to <a href={`mailto:${appConfig.supportEmail}`}>{appConfig.supportEmail}</a>.
      </p>
      <DemoForm />
    </Dialog>
  );
}

/** The address the Book a Demo links point to (the fallback's id below). */
export const BOOK_DEMO_FRAGMENT = '#book-demo';

/**
 * Book a Demo as a link to BOOK_DEMO_FRAGMENT that opens the dialog once the app runs. Before
 * the app has taken over the prerendered page (or with scripts off) the link does its plain
 * job: the fragment shows BookDemoFallback, and the app opens the dialog when it starts.
 */
export function bookDemoLinkProps(onBookDemo: () => void) {
  return {
    href: BOOK_DEMO_FRAGMENT,
    role: 'button',
    onClick: (event: MouseEvent<HTMLAnchorElement>) => {
      event.preventDefault();
      onBookDemo();
    },
  } as const;
}

/**
 * Opens the dialog when the page is (or comes to be) at BOOK_DEMO_FRAGMENT: a Book a Demo tap
 * that came before the app, or a link from elsewhere. Before the first paint of the hydrated
 * page, so the dialog is up before the fallback goes.
 */
export function useBookDemoFragment(open: () => void): void {
  useLayoutEffect(() => {
    if (window.location.hash === BOOK_DEMO_FRAGMENT) open();
  }, [open]);
  useEffect(() => {
    const onHashChange = () => {
      if (window.location.hash === BOOK_DEMO_FRAGMENT) open();
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [open]);
}

/**
 * The demo form as the page's HTML shows it when Book a Demo is tapped before the app runs (the
 * link's target, shown by `:target`; hidden once the app has taken over, which opens the real
 * dialog in its place). It works on its own with scripts off: the form loads when shown (a lazy
 * frame that is not displayed is not fetched) and Close is a link away from the fragment.
 */
export function BookDemoFallback() {
  return (
    <div
      id={BOOK_DEMO_FRAGMENT.slice(1)}
      className="lp-demo-target"
      role="dialog"
      aria-modal="true"
      aria-labelledby="book-demo-fallback-title"
    >
      <div className="dialog lp-demo-dialog lp-demo-target-box">
        <div className="dialog-body">
          <h2 id="book-demo-fallback-title" className="dialog-title">
            Book a demo
          </h2>
          <a className="lp-icon-btn lp-demo-close" href="#book-demo-closed" aria-label="Close">
            <CloseIcon />
          </a>
          <p className="lp-demo-intro">
            Tell us a little about your venue and our team will reach out to schedule your demo.
            Prefer e-mail? Write to{' '}
            <a href={`mailto:${appConfig.supportEmail}`}>{appConfig.supportEmail}</a>.
          </p>
          <div className="lp-demo-frame">
            <iframe
              src={appConfig.demoFormUrl}
              title="Book a demo form"
              loading="lazy"
              className="is-loaded"
            />
          </div>
        </div>
      </div>
    </div>
  );
}
