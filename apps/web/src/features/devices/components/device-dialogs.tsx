import type { Device, DevicePatch } from '@flashbooth/contracts';
import { PRINTS_LEFT_MAX, PRINTS_LEFT_MIN } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { Field, FormDialog } from '@/components/console/form-dialog';
import { TextFieldDialog } from '@/components/console/text-field-dialog';
import { type FormMutation, useFormSubmit } from '@/components/console/use-form-submit';
import { useChannelOptions } from '../api/get-channel-options';
import { useLinkDevice } from '../api/link-device';
import { useUpdateDevice } from '../api/update-device';
import {
  channelOptionLabel,
  channelValue,
  DEVICE_TEXT,
  asFormOutcome,
  nameValue,
  organizationIdValue,
  priceValue,
  restockValue,
} from '../devices-model';

interface DeviceDialogProps {
  device: Device;
  onClose: () => void;
  /** The change went through: the screen's success message. */
  onDone: (text: string) => void;
}

/** PATCH devices/{id} with one field: the value a TextFieldDialog checked, as `patch` of it. */
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
    <TextFieldDialog
      title="Link Device to Organization"
      label="Organization ID"
      inputMode="numeric"
      submitLabel="Link"
      check={(text) => asFormOutcome(organizationIdValue(text))}
      send={useLinkDevice(device.id)}
      failed={DEVICE_TEXT.linkFailed}
      onSent={(orgId) => onDone(DEVICE_TEXT.linked(orgId))}
      onClose={onClose}
    />
  );
}

/** Edit Device Name: required; the same name is "No changes to save.". */
export function EditNameDialog({ device, onClose, onDone }: DeviceDialogProps) {
  return (
    <TextFieldDialog
      title="Edit Device Name"
      label="Device name"
      initial={device.name}
      inputMode="text"
      check={(text) => asFormOutcome(nameValue(device.name, text))}
      send={usePatch(device, (name: string) => ({ name }))}
      failed={DEVICE_TEXT.nameFailed}
      onSent={() => onDone(DEVICE_TEXT.renamed)}
      onClose={onClose}
    />
  );
}

/** Restock Printer Media: the new roll's prints, 100 to 700. */
export function RestockDialog({ device, onClose, onDone }: DeviceDialogProps) {
  return (
    <TextFieldDialog
      title="Restock Printer Media"
      label="Prints left"
      hint={`A whole number from ${PRINTS_LEFT_MIN} to ${PRINTS_LEFT_MAX} (a full roll is ${PRINTS_LEFT_MAX}).`}
      initial={String(PRINTS_LEFT_MAX)}
      inputMode="numeric"
      submitLabel="Restock"
      check={(text) => asFormOutcome(restockValue(text))}
      send={usePatch(device, (prints: number) => ({ prints_left: prints }))}
      failed={DEVICE_TEXT.printsFailed}
      onSent={(prints) => onDone(DEVICE_TEXT.restocked(prints))}
      onClose={onClose}
    />
  );
}

/** Edit Device Price: rupees, 0 to 1000, rounded to two decimals. */
export function EditPriceDialog({ device, onClose, onDone }: DeviceDialogProps) {
  return (
    <TextFieldDialog
      title="Edit Device Price"
      label="Price (Rupees)"
      hint="From 0.00 to 1000.00; 0 makes captures free."
      initial={device.price_rupees.toFixed(2)}
      inputMode="decimal"
      check={(text) => asFormOutcome(priceValue(text))}
      send={usePatch(device, (price: number) => ({ price_rupees: price }))}
      failed={DEVICE_TEXT.priceFailed}
      onSent={() => onDone(DEVICE_TEXT.priceUpdated)}
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
