import type { RegisteredDevice } from '@flashbooth/contracts';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Field, FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { Dialog } from '@/components/ui/dialog';
import { paths } from '@/config/paths';
import { useRegisterDevice } from '../api/register-device';
import { asFormOutcome, boothEnvBlock, DEVICE_TEXT, nameValue } from '../devices-model';
import { CopyButton } from './copy-button';
import { EnrollmentCodePanel } from './enrollment-code-panel';

interface RegisterDeviceDialogProps {
  onClose: () => void;
  onRegistered: (device: RegisteredDevice) => void;
}

/**
 * +Add: registers a device (an optional name; the server names it after its serial otherwise),
 * then shows a one-time enrollment code for the booth computer, and (the advanced way) its
 * secret, shown once, with the env block to paste into the booth.
 * Mounted while open, so a second +Add starts afresh and the secret leaves memory on close.
 */
export function RegisterDeviceDialog({ onClose, onRegistered }: RegisterDeviceDialogProps) {
  const nameId = useId();
  const [name, setName] = useState('');
  const register = useRegisterDevice();
  const submit = useFormSubmit(
    register,
    // An empty name is none: the server names the device after its serial.
    () => (name.trim() ? asFormOutcome(nameValue('', name)) : { kind: 'ok', body: undefined }),
    DEVICE_TEXT.registerFailed,
    onRegistered,
  );
  const registered = register.data;

  if (registered) return <RegisteredBooth device={registered} onClose={onClose} />;

  return (
    <FormDialog
      open
      title="Register Device"
      submitLabel="Register"
      busyLabel="Registering..."
      onCancel={onClose}
      {...submit}
    >
      <Field
        id={nameId}
        label="Device name (optional)"
        hint="Left empty, the device is named after its serial. It can be renamed later."
      >
        <input
          id={nameId}
          className="input"
          value={name}
          maxLength={100}
          autoComplete="off"
          onChange={(event) => {
            setName(event.target.value);
            submit.clear();
          }}
        />
      </Field>
    </FormDialog>
  );
}

/**
 * The new booth's name and serial; the enrollment code and command (made right after the
 * registration); then "Advanced: paste settings": the secret, shown this once, and the env block.
 */
function RegisteredBooth({ device, onClose }: { device: RegisteredDevice; onClose: () => void }) {
  const block = boothEnvBlock(device.booth_env);
  return (
    <Dialog
      open
      title="Device Registered"
      onClose={onClose}
      closeOnBackdrop={false}
      className="device-registered-dialog"
    >
      <div className="device-registered" data-testid="device-registered">
        <dl className="console-facts">
          <dt>Name</dt>
          <dd>{device.name}</dd>
          <dt>Serial</dt>
          <dd className="device-mono">{device.thing_name}</dd>
        </dl>
        <EnrollmentCodePanel deviceId={device.id} />
        <h3 className="device-advanced-title">Advanced: paste settings</h3>
        <p className="field-hint">
          Instead of the code: copy the secret and paste the booth environment on the booth. Not
          needed when the booth enrolls with the code (enrolling replaces this secret).
        </p>
        <div className="device-secret">
          <div className="device-secret-head">
            <span className="device-secret-label" id="device-secret-label">
              Secret
            </span>
            <CopyButton text={device.secret} label="Copy secret" />
          </div>
          {/* Scrolls sideways where it does not fit (tabIndex: by keyboard too), never wraps. */}
          <code
            className="device-mono device-secret-value"
            aria-labelledby="device-secret-label"
            tabIndex={0}
          >
            {device.secret}
          </code>
        </div>
        <p className="status status-error device-once" role="alert">
          {DEVICE_TEXT.secretOnce}
        </p>
        <div className="device-secret">
          <div className="device-secret-head">
            <span className="device-secret-label" id="device-env-label">
              Booth environment
            </span>
            <CopyButton text={block} label="Copy booth environment" />
          </div>
          <pre
            className="device-env"
            aria-labelledby="device-env-label"
            tabIndex={0}
            data-testid="booth-env"
          >
            {block}
          </pre>
          <p className="field-hint">
            Paste these lines into the booth&apos;s environment (for example its .env file) and
            start the booth agent.
          </p>
        </div>
        <div className="dialog-actions">
          <Link className="btn btn-secondary" to={paths.enterprise.device.getHref(device.id)}>
            Open Device
          </Link>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Dialog>
  );
}
