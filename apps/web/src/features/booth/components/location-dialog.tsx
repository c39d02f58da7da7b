import type { VisitorDevice } from '@flashbooth/contracts';
import { Link } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';

interface LocationDialogProps {
  open: boolean;
  device: VisitorDevice | undefined;
  onConfirm: () => void;
}

/**
 * The address Yes, I'm Here links to. The page's HTML shows this dialog before its script runs;
 * a tap then only sets this fragment, which the booth screen reads when it starts (BoothScreen),
 * so the tap is not lost.
 */
export const CONFIRMED_FRAGMENT = '#here';

/**
 * Spec: before choosing a template the visitor confirms the booth in front of them. It is a
 * required choice, so Escape and backdrop clicks do not dismiss it.
 */
export function LocationDialog({ open, device, onConfirm }: LocationDialogProps) {
  return (
    <Dialog
      open={open && device !== undefined}
      title="Confirm Your Location"
      onClose={() => undefined}
      closeOnBackdrop={false}
      className="booth-location-dialog"
    >
      {device && (
        <>
          <p className="booth-location-lead">Please confirm you are at this photobooth.</p>
          <dl className="booth-location">
            <div className="booth-location-row">
              <dt>Venue</dt>
              <dd data-testid="location-org">{device.org_name ?? '—'}</dd>
            </div>
            <div className="booth-location-row">
              <dt>Photobooth</dt>
              <dd data-testid="location-device">{device.name}</dd>
            </div>
          </dl>
          <div className="dialog-actions">
            {/* Links, so a tap works from the page's HTML before its script has run. */}
            <Link className="btn btn-secondary" to={paths.home.getHref()} role="button">
              Wrong Location
            </Link>
            <a
              className="btn btn-primary"
              href={CONFIRMED_FRAGMENT}
              role="button"
              onClick={(event) => {
                event.preventDefault();
                onConfirm();
              }}
            >
              Yes, I&apos;m Here
            </a>
          </div>
        </>
      )}
    </Dialog>
  );
}
