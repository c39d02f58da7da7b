import type { Device, DevicePatch } from '@flashbooth/contracts';
import { PRINTS_LEFT_MAX, PRINTS_LEFT_MIN } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { Field, FormDialog } from '@/components/console/form-dialog';
import { useChannelOptions } from '../api/get-channel-options';
import { useLinkDevice } from '../api/link-device';
import { useUpdateDevice } from '../api/update-device';
import {
  channelOptionLabel,
  channelValue,
  DEVICE_TEXT,
  type FormOutcome,
  nameValue,
  organizationIdValue,
  priceValue,
  restockValue,
} from '../devices-model';

type Message = { kind: 'error' | 'info'; text: string } | null;

interface SingleFieldDialogProps<T> {
  title: string;
  label: string;
  hint?: string;
  initial: string;
  inputMode: 'text' | 'numeric' | 'decimal';
  submitLabel?: string;
  parse: (text: string) => FormOutcome<T>;
  busy: boolean;
  /** Sends the value; `fail` shows the server's message (or the spec's) in the dialog. */
  save: (value: T, fail: (text: string) => void) => void;
  onClose: () => void;
}

/** A dialog of one field checked by a devices-model rule before anything is sent. */
function SingleFieldDialog<T>({
  title,
  label,
  hint,
  initial,
  inputMode,
  submitLabel = 'Save',
  parse,
  busy,
  save,
  onClose,
}: SingleFieldDialogProps<T>) {
  const id = useId();
  const [text, setText] = useState(initial);
  const [message, setMessage] = useState<Message>(null);
  const submit = () => {
    const outcome = parse(text);
    if (outcome.kind !== 'ok') {
      setMessage({ kind: outcome.kind === 'unchanged' ? 'info' : 'error', text: outcome.message });
      return;
    }
    setMessage(null);
    save(outcome.value, (failure) => setMessage({ kind: 'error', text: failure }));
  };
  return (
    <FormDialog
      open
      title={title}
      submitLabel={submitLabel}
      busyLabel="Saving..."
      busy={busy}
      error={message?.kind === 'error' ? message.text : null}
      notice={message?.kind === 'info' ? message.text : null}
      onSubmit={submit}
      onCancel={onClose}
    >
      <Field id={id} label={label} {...(hint ? { hint } : {})}>
        <input
          id={id}
          className="input"
          value={text}
          inputMode={inputMode}
          autoComplete="off"
          aria-invalid={message?.kind === 'error' || undefined}
          onChange={(event) => {
            setText(event.target.value);
            setMessage(null);
          }}
        />
      </Field>
    </FormDialog>
  );
}

interface DeviceDialogProps {
  device: Device;
  onClose: () => void;
  /** The change went through: the screen's success message. */
  onDone: (text: string) => void;
}

/** PATCH devices/{id} with one field, from a SingleFieldDialog. */
function usePatch(device: Device, fallback: string, onDone: (text: string) => void) {
  const update = useUpdateDevice(device.id);
  return {
    busy: update.isPending,
    send: (patch: DevicePatch, success: string, fail: (text: string) => void) =>
      update.mutate(patch, {
        onSuccess: () => onDone(success),
        onError: (error) => fail(error.message || fallback),
      }),
  };
}

/** Link Device to Organization: the organization's id. */
export function LinkDeviceDialog({ device, onClose, onDone }: DeviceDialogProps) {
  const link = useLinkDevice(device.id);
  return (
    <SingleFieldDialog
      title="Link Device to Organization"
      label="Organization ID"
      initial=""
      inputMode="numeric"
      submitLabel="Link"
      parse={organizationIdValue}
      busy={link.isPending}
      save={(orgId, fail) =>
        link.mutate(orgId, {
          onSuccess: () => onDone(DEVICE_TEXT.linked(orgId)),
          onError: (error) => fail(error.message || DEVICE_TEXT.linkFailed),
        })
      }
      onClose={onClose}
    />
  );
}

/** Edit Device Name: required; the same name is "No changes to save.". */
export function EditNameDialog({ device, onClose, onDone }: DeviceDialogProps) {
  const patch = usePatch(device, DEVICE_TEXT.nameFailed, onDone);
  return (
    <SingleFieldDialog
      title="Edit Device Name"
      label="Device name"
      initial={device.name}
      inputMode="text"
      parse={(text) => nameValue(device.name, text)}
      busy={patch.busy}
      save={(name, fail) => patch.send({ name }, DEVICE_TEXT.renamed, fail)}
      onClose={onClose}
    />
  );
}

/** Restock Printer Media: the new roll's prints, 100 to 700. */
export function RestockDialog({ device, onClose, onDone }: DeviceDialogProps) {
  const patch = usePatch(device, DEVICE_TEXT.printsFailed, onDone);
  return (
    <SingleFieldDialog
      title="Restock Printer Media"
      label="Prints left"
      hint={`A whole number from ${PRINTS_LEFT_MIN} to ${PRINTS_LEFT_MAX} (a full roll is ${PRINTS_LEFT_MAX}).`}
      initial={String(PRINTS_LEFT_MAX)}
      inputMode="numeric"
      submitLabel="Restock"
      parse={restockValue}
      busy={patch.busy}
      save={(prints, fail) =>
        patch.send({ prints_left: prints }, DEVICE_TEXT.restocked(prints), fail)
      }
      onClose={onClose}
    />
  );
}

/** Edit Device Price: rupees, 0 to 1000, rounded to two decimals. */
export function EditPriceDialog({ device, onClose, onDone }: DeviceDialogProps) {
  const patch = usePatch(device, DEVICE_TEXT.priceFailed, onDone);
  return (
    <SingleFieldDialog
      title="Edit Device Price"
      label="Price (Rupees)"
      hint="From 0.00 to 1000.00; 0 makes captures free."
      initial={device.price_rupees.toFixed(2)}
      inputMode="decimal"
      parse={priceValue}
      busy={patch.busy}
      save={(price, fail) => patch.send({ price_rupees: price }, DEVICE_TEXT.priceUpdated, fail)}
      onClose={onClose}
    />
  );
}

/** Edit Software Channel: "(None)" or one of up to 200 channels, "name (version or N/A)". */
export function EditChannelDialog({ device, onClose, onDone }: DeviceDialogProps) {
  const id = useId();
  const channels = useChannelOptions(true);
  const patch = usePatch(device, DEVICE_TEXT.channelFailed, onDone);
  const [selected, setSelected] = useState(
    device.software_channel_id === null ? '' : String(device.software_channel_id),
  );
  const [message, setMessage] = useState<Message>(null);
  const options = channels.data ?? [];
  // The device's channel stays choosable even when it is not among the 200 loaded.
  const currentMissing =
    device.software_channel_id !== null &&
    !options.some((channel) => channel.id === device.software_channel_id);

  const submit = () => {
    const outcome = channelValue(device.software_channel_id, selected);
    if (outcome.kind !== 'ok') {
      setMessage({ kind: outcome.kind === 'unchanged' ? 'info' : 'error', text: outcome.message });
      return;
    }
    setMessage(null);
    patch.send({ software_channel_id: outcome.value }, DEVICE_TEXT.channelUpdated, (text) =>
      setMessage({ kind: 'error', text }),
    );
  };

  const loadError = channels.isError ? DEVICE_TEXT.channelsFailed : null;
  return (
    <FormDialog
      open
      title="Edit Software Channel"
      submitLabel="Save"
      busyLabel="Saving..."
      busy={patch.busy}
      error={message?.kind === 'error' ? message.text : loadError}
      notice={message?.kind === 'info' ? message.text : null}
      onSubmit={submit}
      onCancel={onClose}
    >
      <Field id={id} label="Software channel">
        <select
          id={id}
          className="input"
          value={selected}
          disabled={channels.isPending}
          aria-busy={channels.isPending || undefined}
          onChange={(event) => {
            setSelected(event.target.value);
            setMessage(null);
          }}
        >
          <option value="">{DEVICE_TEXT.none}</option>
          {currentMissing && (
            <option value={String(device.software_channel_id)}>
              {device.software_channel_name ?? `Channel ${device.software_channel_id}`}
            </option>
          )}
          {options.map((channel) => (
            <option key={channel.id} value={String(channel.id)}>
              {channelOptionLabel(channel)}
            </option>
          ))}
        </select>
      </Field>
      {channels.isPending && <p className="field-hint">Loading software channels…</p>}
    </FormDialog>
  );
}
