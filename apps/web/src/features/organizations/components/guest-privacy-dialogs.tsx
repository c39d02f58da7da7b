import type { Guest } from '@flashbooth/contracts';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { LoadErrorPanel } from '@/components/ui/list-states';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { usePersonExport, useRequestPersonExport } from '../api/person-privacy';
import { GUEST_PRIVACY_TEXT as T, personExportState } from '../guest-privacy-model';
import { orNotAvailable } from '../organizations-model';

/**
 * A super user's data export of one guest, on the guest's request: prepare it, follow it while
 * it is built, then download the ZIP before its link expires.
 */
export function GuestExportDialog({ guest, onClose }: { guest: Guest; onClose: () => void }) {
  const current = usePersonExport(guest.id, true);
  const request = useRequestPersonExport(guest.id);
  const state = personExportState(current.data?.current ?? null);
  return (
    <Dialog open title={T.exportTitle(orNotAvailable(guest.name))} onClose={onClose}>
      <p className="guest-privacy-intro">{T.exportIntro}</p>
      {current.isPending ? (
        <Spinner label="Loading the data export…" />
      ) : current.isError ? (
        <LoadErrorPanel
          className="guest-privacy-error"
          message={T.exportLoadFailed}
          query={current}
        />
      ) : (
        state.text && (
          <p className="guest-privacy-state" role="status">
            {state.busy && <Spinner small label="" />}
            <span>{state.text}</span>
          </p>
        )
      )}
      {request.isError && (
        <p className="status status-error" role="alert">
          {errorText(request.error, T.exportFailed)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          {T.close}
        </button>
        {state.url ? (
          <a className="btn btn-primary" href={state.url} download>
            Download ZIP
          </a>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            disabled={request.isPending || state.busy || current.isPending}
            aria-busy={request.isPending || undefined}
            onClick={() => request.mutate()}
          >
            {T.exportStart}
          </button>
        )}
      </div>
    </Dialog>
  );
}

/** Confirms erasing one guest's account and data, on the guest's request. */
export function GuestEraseDialog({
  guest,
  busy,
  onConfirm,
  onCancel,
}: {
  guest: Guest;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open
      title={T.eraseTitle}
      message={T.eraseConfirm(orNotAvailable(guest.name))}
      confirmLabel={T.eraseAction}
      danger
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
