import type { VisitorDevice } from '@flashbooth/contracts';
import { Dialog } from '@/components/ui/dialog';

interface LocationDialogProps {
  open: boolean;
  device: VisitorDevice | undefined;
  onConfirm: () => void;
  onWrongLocation: () => void;
}

/**
 * Spec: before choosing a template the visitor confirms the booth in front of them. It is a
 * required choice, so Escape and backdrop clicks do not dismiss it.
 */
export function LocationDialog({ open, device, onConfirm, onWrongLocation }: LocationDialogProps) {
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
            <button type="button" className="btn btn-secondary" onClick={onWrongLocation}>
              Wrong Location
            </button>
            <button type="button" className="btn btn-primary" onClick={onConfirm}>
              Yes, I&apos;m Here
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
