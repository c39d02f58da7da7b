import { useState } from 'react';
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
