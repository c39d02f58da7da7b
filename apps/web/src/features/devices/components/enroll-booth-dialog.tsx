import { Dialog } from '@/components/ui/dialog';
import { EnrollmentCodePanel } from './enrollment-code-panel';

/**
 * Device detail, "Enroll a booth computer": a new one-time code for this device and the command
 * to run on the booth. Mounted while open, so each opening makes a fresh code.
 */
export function EnrollBoothDialog({
  deviceId,
  onClose,
}: {
  deviceId: number;
  onClose: () => void;
}) {
  return (
    <Dialog open title="Enroll a booth computer" onClose={onClose} className="enrollment-dialog">
      <div className="enrollment-dialog-body">
        <EnrollmentCodePanel deviceId={deviceId} title={false} />
        <div className="dialog-actions">
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Dialog>
  );
}
