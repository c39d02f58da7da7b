import type { Device, DevicePatch } from '@flashbooth/contracts';
import { PRINTS_LEFT_MAX, PRINTS_LEFT_MIN } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { Field, FormDialog } from '@/components/console/form-dialog';
import { type FormMutation, useFormSubmit } from '@/components/console/use-form-submit';
import { useChannelOptions } from '../api/get-channel-options';
import { useLinkDevice } from '../api/link-device';
import { useUpdateDevice } from '../api/update-device';
import {
  channelOptionLabel,
  channelValue,
  DEVICE_TEXT,
  asFormOutcome,
  type FieldOutcome,
  nameValue,
  organizationIdValue,
  priceValue,
  restockValue,
} from '../devices-model';

interface SingleFieldDialogProps<T> {
  title: string;
  label: string;
  hint?: string;
  initial: string;
  inputMode: 'text' | 'numeric' | 'decimal';
  submitLabel?: string;
  /** The devices-model rule the text must pass before anything is sent. */
  parse: (text: string) => FieldOutcome<T>;
  /** Sends the value. */
  send: FormMutation<T, unknown>;
  /** The dialog's failure when the server says none. */
  failed: string;
  /** The screen's message once it went through. */
  success: (value: T) => string;
  onDone: (text: string) => void;
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
  send,
  failed,
  success,
  onDone,
  onClose,
}: SingleFieldDialogProps<T>) {
  const id = useId();
  const [text, setText] = useState(initial);
  const submit = useFormSubmit(
    send,
    () => asFormOutcome(parse(text)),
    failed,
    (_, value) => onDone(success(value)),
  );
  return (
    <FormDialog
      open
      title={title}
      submitLabel={submitLabel}
      busyLabel="Saving..."
      onCancel={onClose}
      {...submit}
    >
      <Field id={id} label={label} {...(hint ? { hint } : {})}>
        <input
          id={id}
          className="input"
          value={text}
          inputMode={inputMode}
          autoComplete="off"
          aria-invalid={submit.error !== null || undefined}
          onChange={(event) => {
            setText(event.target.value);
            submit.clear();
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

/** PATCH devices/{id} with one field: the value a SingleFieldDialog checked, as `patch` of it. */
function usePatch<T>(device: Device, patch: (value: T) => DevicePatch): FormMutation<T, unknown> {
  const update = useUpdateDevice(device.id);
  return {
    isPending: update.isPending,
    mutate: (value, { onSuccess, onError }) =>
      update.mutate(patch(value), { onSuccess: (result) => onSuccess(result, value), onError }),
  };
}

/** Link Device to Organization: the organization's id. */
export function LinkDeviceDialog({ device, onClose, onDone }: DeviceDialogProps) {
  return (
    <SingleFieldDialog
      title="Link Device to Organization"
      label="Organization ID"
      initial=""
      inputMode="numeric"
      submitLabel="Link"
      parse={organizationIdValue}
      send={useLinkDevice(device.id)}
      failed={DEVICE_TEXT.linkFailed}
      success={DEVICE_TEXT.linked}
      onDone={onDone}
      onClose={onClose}
    />
  );
}

/** Edit Device Name: required; the same name is "No changes to save.". */
export function EditNameDialog({ device, onClose, onDone }: DeviceDialogProps) {
  return (
    <SingleFieldDialog
      title="Edit Device Name"
      label="Device name"
      initial={device.name}
      inputMode="text"
      parse={(text) => nameValue(device.name, text)}
      send={usePatch(device, (name: string) => ({ name }))}
      failed={DEVICE_TEXT.nameFailed}
      success={() => DEVICE_TEXT.renamed}
      onDone={onDone}
      onClose={onClose}
    />
  );
}

/** Restock Printer Media: the new roll's prints, 100 to 700. */
export function RestockDialog({ device, onClose, onDone }: DeviceDialogProps) {
  return (
    <SingleFieldDialog
      title="Restock Printer Media"
      label="Prints left"
      hint={`A whole number from ${PRINTS_LEFT_MIN} to ${PRINTS_LEFT_MAX} (a full roll is ${PRINTS_LEFT_MAX}).`}
      initial={String(PRINTS_LEFT_MAX)}
      inputMode="numeric"
      submitLabel="Restock"
      parse={restockValue}
      send={usePatch(device, (prints: number) => ({ prints_left: prints }))}
      failed={DEVICE_TEXT.printsFailed}
      success={DEVICE_TEXT.restocked}
      onDone={onDone}
      onClose={onClose}
    />
  );
}

/** Edit Device Price: rupees, 0 to 1000, rounded to two decimals. */
export function EditPriceDialog({ device, onClose, onDone }: DeviceDialogProps) {
  return (
    <SingleFieldDialog
      title="Edit Device Price"
      label="Price (Rupees)"
      hint="From 0.00 to 1000.00; 0 makes captures free."
      initial={device.price_rupees.toFixed(2)}
      inputMode="decimal"
      parse={priceValue}
      send={usePatch(device, (price: number) => ({ price_rupees: price }))}
      failed={DEVICE_TEXT.priceFailed}
      success={() => DEVICE_TEXT.priceUpdated}
      onDone={onDone}
      onClose={onClose}
    />
  );
}

/** Edit Software Channel: "(None)" or one of up to 200 channels, "name (version or N/A)". */
export function EditChannelDialog({ device, onClose, onDone }: DeviceDialogProps) {
  const id = useId();
  const channels = useChannelOptions(true);
  const [selected, setSelected] = useState(
    device.software_channel_id === null ? '' : String(device.software_channel_id),
  );
  const submit = useFormSubmit(
    usePatch(device, (channelId: number | null) => ({ software_channel_id: channelId })),
    () => asFormOutcome(channelValue(device.software_channel_id, selected)),
    DEVICE_TEXT.channelFailed,
    () => onDone(DEVICE_TEXT.channelUpdated),
  );
  const options = channels.data ?? [];
  // The device's channel stays choosable even when it is not among the 200 loaded.
  const currentMissing =
    device.software_channel_id !== null &&
    !options.some((channel) => channel.id === device.software_channel_id);

  const loadError = channels.isError ? DEVICE_TEXT.channelsFailed : null;
  return (
    <FormDialog
      open
      title="Edit Software Channel"
      submitLabel="Save"
      busyLabel="Saving..."
      onCancel={onClose}
      {...submit}
      error={submit.error ?? loadError}
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
            submit.clear();
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
