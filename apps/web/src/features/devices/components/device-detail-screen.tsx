import type { Device } from '@flashbooth/contracts';
import { useState } from 'react';
import {
  ConfirmMutation,
  DeleteConfirm,
  DetailActions,
  DetailPage,
  DetailSkeleton,
  useDetailScreen,
} from '@/components/console/detail-page';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { ConfirmDialog } from '@/components/ui/dialog';
import { StatusMessage, useTimedStatus } from '@/components/ui/status-message';
import { paths } from '@/config/paths';
import { errorText } from '@/lib/error-text';
import { formatUtcTimestamp } from '@/lib/format-date';
import { useDeleteDevice } from '../api/delete-device';
import { deviceQueryOptions, useDevice } from '../api/get-device';
import { usePingDevice } from '../api/ping-device';
import { useUnlinkDevice } from '../api/unlink-device';
import { useUpdateDeviceSoftware } from '../api/update-device-software';
import { useLiveDevices } from '../api/use-live-devices';
import {
  DEVICE_STATUS_MS,
  DEVICE_TEXT,
  detailChannel,
  detailOrganization,
  formatPrice,
  lowRollWarning,
  PING_STATUS_MS,
  printsLabel,
  printsPercent,
  printsTone,
} from '../devices-model';
import {
  EditChannelDialog,
  EditNameDialog,
  EditPriceDialog,
  LinkDeviceDialog,
  RestockDialog,
} from './device-dialogs';
import { DeviceStatus, LiveIndicator } from './device-status';
import { EnrollBoothDialog } from './enroll-booth-dialog';
import '@/components/console/console.css';
import './devices.css';
import { DeviceHealthPanel } from '../health/device-health-panel';

/** The dialogs of one field, each opened by its action. */
const FIELD_DIALOGS = {
  link: LinkDeviceDialog,
  name: EditNameDialog,
  channel: EditChannelDialog,
  restock: RestockDialog,
  price: EditPriceDialog,
} as const;

type DeviceDialog = keyof typeof FIELD_DIALOGS | 'unlink' | 'update';

/** The field dialog open, if the one open is one. */
function fieldDialog(dialog: string | null) {
  return dialog !== null && dialog in FIELD_DIALOGS
    ? FIELD_DIALOGS[dialog as keyof typeof FIELD_DIALOGS]
    : null;
}

/** Prints Left: "n / 700", a bar red below 50, yellow below 175, green, and the low-roll warning. */
function PrintsLeft({ printsLeft }: { printsLeft: number }) {
  const warning = lowRollWarning(printsLeft);
  return (
    <div className="device-prints">
      <span>{printsLabel(printsLeft)}</span>
      <div
        className={`device-prints-bar device-prints-${printsTone(printsLeft)}`}
        role="progressbar"
        aria-label="Prints left"
        aria-valuemin={0}
        aria-valuemax={700}
        aria-valuenow={printsLeft}
        aria-valuetext={printsLabel(printsLeft)}
      >
        <span style={{ width: `${printsPercent(printsLeft)}%` }} />
      </div>
      {warning && (
        <p className="device-low-roll" role="alert">
          {warning}
        </p>
      )}
    </div>
  );
}

/** The info panel (staff spec section 2: Device detail). */
function DeviceInfo({ device }: { device: Device }) {
  return (
    <dl className="console-facts device-facts">
      <dt>Organization</dt>
      <dd className={device.org_id === null ? 'device-none' : undefined}>
        {detailOrganization(device)}
      </dd>
      <dt>Serial</dt>
      <dd className="device-mono">{device.thing_name}</dd>
      <dt>Status</dt>
      <dd>
        <DeviceStatus status={device.status} />
      </dd>
      <dt>Software Channel</dt>
      <dd>{detailChannel(device)}</dd>
      <dt>Software Version</dt>
      <dd>{device.software_version ?? DEVICE_TEXT.notSet}</dd>
      <dt>Price (Rupees)</dt>
      <dd data-testid="device-price">{formatPrice(device.price_rupees)}</dd>
      <dt>Prints Left</dt>
      <dd data-testid="device-prints">
        <PrintsLeft printsLeft={device.prints_left} />
      </dd>
      <dt>Created At</dt>
      <dd>{formatUtcTimestamp(device.created_at)}</dd>
      <dt>Updated At</dt>
      <dd>{formatUtcTimestamp(device.updated_at)}</dd>
      <dt>Pinged At</dt>
      <dd>{device.pinged_at ? formatUtcTimestamp(device.pinged_at) : 'Never'}</dd>
    </dl>
  );
}

/** Device detail (staff spec section 2), its buttons by permission, with live status. */
export function DeviceDetailScreen({ deviceId }: { deviceId: number }) {
  const ping = useTimedStatus(PING_STATUS_MS);
  const screen = useDetailScreen<DeviceDialog>({
    remove: useDeleteDevice(deviceId),
    queryKey: deviceQueryOptions(deviceId).queryKey,
    list: { label: 'Devices', href: paths.enterprise.devices.getHref() },
    statusMs: DEVICE_STATUS_MS,
    // Success and error never show together: a new message of one kind clears the other.
    beforeMessage: ping.clear,
  });
  const permissions = useStaffPermissions(screen.show);
  const device = useDevice(deviceId);
  const live = useLiveDevices({ enabled: device.isSuccess });
  const pinging = usePingDevice(deviceId);
  const unlink = useUnlinkDevice(deviceId);
  const update = useUpdateDeviceSoftware(deviceId);
  const [enrolling, setEnrolling] = useState(false);

  const runPing = () => {
    screen.clear();
    ping.clear();
    pinging.mutate(undefined, {
      onSuccess: () => ping.show('success', DEVICE_TEXT.pingOk),
      onError: () => ping.show('error', DEVICE_TEXT.pingFailed),
    });
  };

  const detail = (record: Device) => {
    const orgId = record.org_id ?? undefined;
    const canManage = permissions.can('device.manage', orgId);
    const linked = record.org_id !== null;
    const opens = (label: string, dialog: DeviceDialog | 'delete', shown = canManage) => ({
      label,
      shown,
      onClick: () => screen.open(dialog),
    });
    const FieldDialog = fieldDialog(screen.dialog);
    return (
      <>
        <DetailActions
          label="Device actions"
          className="device-actions"
          busy={screen.busy}
          actions={[
            opens('Edit Name', 'name', permissions.can('device.rename', orgId)),
            opens('Link Device', 'link', canManage && !linked),
            opens('Unlink Device', 'unlink', canManage && linked),
            opens('Edit Software Channel', 'channel'),
            opens('Restock Media', 'restock'),
            opens('Edit Price', 'price'),
            {
              label: pinging.isPending ? (
                <>
                  <span className="spinner spinner-sm" aria-hidden="true" />
                  Pinging…
                </>
              ) : (
                'Ping Device'
              ),
              className: 'btn-primary device-ping-button',
              onClick: runPing,
              disabled: pinging.isPending,
              busy: pinging.isPending,
            },
            {
              ...opens(update.isPending ? 'Updating...' : 'Update Software', 'update'),
              disabled: update.isPending,
              busy: update.isPending,
            },
            {
              label: 'View Logs',
              shown: canManage,
              href: paths.enterprise.deviceLogs.getHref(deviceId),
            },
            {
              label: 'Enroll a booth computer',
              shown: canManage,
              onClick: () => setEnrolling(true),
            },
            {
              label: 'QR poster',
              shown: linked,
              href: paths.enterprise.devicePoster.getHref(deviceId),
            },
            { ...opens('Delete Device', 'delete'), className: 'btn-danger' },
          ]}
        />
        <div className="device-ping-result" data-testid="ping-result">
          <StatusMessage status={ping.status} />
        </div>

        <section className="card device-panel" aria-labelledby="device-info-title">
          <h2 className="console-section-title" id="device-info-title">
            Device Information
          </h2>
          <DeviceInfo device={record} />
        </section>

        <DeviceHealthPanel deviceId={deviceId} />

        <section className="card device-panel" aria-labelledby="device-raw-title">
          <h2 className="console-section-title" id="device-raw-title">
            Sensitive Information
          </h2>
          {permissions.can('device.viewRaw', orgId) ? (
            <pre className="device-raw" tabIndex={0} aria-label="Raw device record">
              {JSON.stringify(record, null, 2)}
            </pre>
          ) : (
            <p className="device-none">{DEVICE_TEXT.sensitiveHidden}</p>
          )}
        </section>

        {enrolling && <EnrollBoothDialog deviceId={deviceId} onClose={() => setEnrolling(false)} />}
        {FieldDialog && (
          <FieldDialog
            device={record}
            onClose={screen.close}
            onDone={(text) => screen.done(text)()}
          />
        )}
        <ConfirmMutation
          open={screen.dialog === 'unlink'}
          title="Confirm Unlink"
          message={DEVICE_TEXT.unlinkConfirm}
          confirmLabel="Yes, Unlink"
          mutation={unlink}
          success={DEVICE_TEXT.unlinked}
          failed={DEVICE_TEXT.unlinkFailed}
          say={screen.say}
          onClose={screen.close}
        />
        <DeleteConfirm
          screen={screen}
          title="Confirm Deletion"
          message={DEVICE_TEXT.deleteConfirm}
          deleted={DEVICE_TEXT.deleted}
          failed={DEVICE_TEXT.deleteFailed}
        />
        <ConfirmDialog
          open={screen.dialog === 'update'}
          title="Confirm Software Update"
          message={DEVICE_TEXT.updateConfirm}
          confirmLabel="Yes, Update"
          onCancel={screen.close}
          onConfirm={() => {
            screen.close();
            update.mutate(undefined, {
              onSuccess: () => screen.say('success', DEVICE_TEXT.updateSent),
              onError: (error) => screen.say('error', errorText(error, DEVICE_TEXT.updateFailed)),
            });
          }}
        />
      </>
    );
  };

  return (
    <DetailPage
      screen={screen}
      title={device.data?.name ?? 'Device'}
      query={device}
      skeleton={
        <DetailSkeleton label="Loading device…" className="card device-panel" lines={8} step={6} />
      }
      failed={{ thing: 'device', message: DEVICE_TEXT.loadDetailsFailed }}
      actions={<LiveIndicator connected={live.connected} />}
    >
      {detail}
    </DetailPage>
  );
}
