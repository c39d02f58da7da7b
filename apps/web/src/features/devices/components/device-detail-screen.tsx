import type { Device } from '@flashbooth/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { ConsolePage } from '@/components/console/console-page';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadFailure } from '@/components/console/load-failure';
import { StatusMessage, useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
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
  RETURN_AFTER_DELETE_MS,
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

type OpenDialog =
  'link' | 'name' | 'channel' | 'restock' | 'price' | 'unlink' | 'delete' | 'update';

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
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { status, show, clear } = useTimedStatus(DEVICE_STATUS_MS);
  const ping = useTimedStatus(PING_STATUS_MS);
  const permissions = useStaffPermissions(show);
  const device = useDevice(deviceId);
  const live = useLiveDevices({ enabled: device.isSuccess });
  const pinging = usePingDevice(deviceId);
  const unlink = useUnlinkDevice(deviceId);
  const remove = useDeleteDevice(deviceId);
  const update = useUpdateDeviceSoftware(deviceId);
  const [open, setOpen] = useState<OpenDialog | null>(null);
  const [enrolling, setEnrolling] = useState(false);
  const deleted = remove.isSuccess;

  // Spec: after a delete, back to the list after 1.5 s.
  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => {
      queryClient.removeQueries({ queryKey: deviceQueryOptions(deviceId).queryKey });
      void navigate(paths.enterprise.devices.getHref(), { replace: true });
    }, RETURN_AFTER_DELETE_MS);
    return () => clearTimeout(timer);
  }, [deleted, navigate, deviceId, queryClient]);

  // Success and error never show together: a new message of one kind clears the other.
  const say = (kind: 'success' | 'error', text: string) => {
    ping.clear();
    show(kind, text);
  };
  const done = (text: string) => {
    setOpen(null);
    say('success', text);
  };

  const record = device.data;
  const name = record?.name ?? 'Device';
  const breadcrumbs = (
    <Breadcrumbs
      items={[{ label: 'Devices', href: paths.enterprise.devices.getHref() }, { label: name }]}
    />
  );
  const toast = <Toast status={status} ms={DEVICE_STATUS_MS} />;

  if (device.isPending) {
    return (
      <ConsolePage className="console-narrow" breadcrumbs={breadcrumbs} title={name} after={toast}>
        <div className="card device-panel" aria-busy="true">
          <span className="visually-hidden" role="status">
            Loading device…
          </span>
          {Array.from({ length: 8 }, (_, index) => (
            <span
              key={index}
              className="skeleton skeleton-line"
              aria-hidden="true"
              style={{ width: `${85 - index * 6}%` }}
            />
          ))}
        </div>
      </ConsolePage>
    );
  }

  if (device.isError || !record) {
    return (
      <ConsolePage className="console-narrow" breadcrumbs={breadcrumbs} title={name} after={toast}>
        <LoadFailure
          error={device.error}
          thing="device"
          failedMessage={DEVICE_TEXT.loadDetailsFailed}
          query={device}
          back={{ href: paths.enterprise.devices.getHref(), label: 'Back to Devices' }}
        />
      </ConsolePage>
    );
  }

  const orgId = record.org_id ?? undefined;
  const canRename = permissions.can('device.rename', orgId);
  const canManage = permissions.can('device.manage', orgId);
  const canViewRaw = permissions.can('device.viewRaw', orgId);
  const linked = record.org_id !== null;
  const busy = deleted || remove.isPending;

  const runPing = () => {
    clear();
    ping.clear();
    pinging.mutate(undefined, {
      onSuccess: () => ping.show('success', DEVICE_TEXT.pingOk),
      onError: () => ping.show('error', DEVICE_TEXT.pingFailed),
    });
  };

  return (
    <ConsolePage
      className="console-narrow"
      breadcrumbs={breadcrumbs}
      title={name}
      actions={<LiveIndicator connected={live.connected} />}
      after={toast}
    >
      <div className="console-actions device-actions" role="group" aria-label="Device actions">
        {canRename && (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => setOpen('name')}
            disabled={busy}
          >
            Edit Name
          </button>
        )}
        {canManage && !linked && (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => setOpen('link')}
            disabled={busy}
          >
            Link Device
          </button>
        )}
        {canManage && linked && (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => setOpen('unlink')}
            disabled={busy}
          >
            Unlink Device
          </button>
        )}
        {canManage && (
          <>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setOpen('channel')}
              disabled={busy}
            >
              Edit Software Channel
            </button>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setOpen('restock')}
              disabled={busy}
            >
              Restock Media
            </button>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setOpen('price')}
              disabled={busy}
            >
              Edit Price
            </button>
          </>
        )}
        <button
          type="button"
          className="btn btn-primary device-ping-button"
          onClick={runPing}
          disabled={busy || pinging.isPending}
          aria-busy={pinging.isPending || undefined}
        >
          {pinging.isPending ? (
            <>
              <span className="spinner spinner-sm" aria-hidden="true" />
              Pinging…
            </>
          ) : (
            'Ping Device'
          )}
        </button>
        {canManage && (
          <>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setOpen('update')}
              disabled={busy || update.isPending}
              aria-busy={update.isPending || undefined}
            >
              {update.isPending ? 'Updating...' : 'Update Software'}
            </button>
            <Link className="btn btn-secondary" to={paths.enterprise.deviceLogs.getHref(deviceId)}>
              View Logs
            </Link>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setEnrolling(true)}
              disabled={busy}
            >
              Enroll a booth computer
            </button>
          </>
        )}
        {linked && (
          <Link className="btn btn-secondary" to={paths.enterprise.devicePoster.getHref(deviceId)}>
            QR poster
          </Link>
        )}
        {canManage && (
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => setOpen('delete')}
            disabled={busy}
          >
            Delete Device
          </button>
        )}
      </div>
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
        {canViewRaw ? (
          <pre className="device-raw" tabIndex={0} aria-label="Raw device record">
            {JSON.stringify(record, null, 2)}
          </pre>
        ) : (
          <p className="device-none">{DEVICE_TEXT.sensitiveHidden}</p>
        )}
      </section>

      {enrolling && <EnrollBoothDialog deviceId={deviceId} onClose={() => setEnrolling(false)} />}
      {open === 'link' && (
        <LinkDeviceDialog device={record} onClose={() => setOpen(null)} onDone={done} />
      )}
      {open === 'name' && (
        <EditNameDialog device={record} onClose={() => setOpen(null)} onDone={done} />
      )}
      {open === 'channel' && (
        <EditChannelDialog device={record} onClose={() => setOpen(null)} onDone={done} />
      )}
      {open === 'restock' && (
        <RestockDialog device={record} onClose={() => setOpen(null)} onDone={done} />
      )}
      {open === 'price' && (
        <EditPriceDialog device={record} onClose={() => setOpen(null)} onDone={done} />
      )}
      <ConfirmDialog
        open={open === 'unlink'}
        title="Confirm Unlink"
        message={DEVICE_TEXT.unlinkConfirm}
        confirmLabel="Yes, Unlink"
        danger
        busy={unlink.isPending}
        onCancel={() => setOpen(null)}
        onConfirm={() =>
          unlink.mutate(undefined, {
            onSuccess: () => say('success', DEVICE_TEXT.unlinked),
            onError: (error) => say('error', error.message || DEVICE_TEXT.unlinkFailed),
            onSettled: () => setOpen(null),
          })
        }
      />
      <ConfirmDialog
        open={open === 'delete'}
        title="Confirm Deletion"
        message={DEVICE_TEXT.deleteConfirm}
        confirmLabel="Yes, Delete"
        danger
        busy={remove.isPending}
        onCancel={() => setOpen(null)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => say('success', DEVICE_TEXT.deleted),
            onError: (error) => say('error', error.message || DEVICE_TEXT.deleteFailed),
            onSettled: () => setOpen(null),
          })
        }
      />
      <ConfirmDialog
        open={open === 'update'}
        title="Confirm Software Update"
        message={DEVICE_TEXT.updateConfirm}
        confirmLabel="Yes, Update"
        onCancel={() => setOpen(null)}
        onConfirm={() => {
          setOpen(null);
          update.mutate(undefined, {
            onSuccess: () => say('success', DEVICE_TEXT.updateSent),
            onError: (error) => say('error', error.message || DEVICE_TEXT.updateFailed),
          });
        }}
      />
    </ConsolePage>
  );
}
