import { useState } from 'react';
import { CardSkeleton } from '@/components/console/card-skeleton';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { ConsoleList } from '@/components/console/console-list';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { useDevices } from '../api/get-devices';
import { useLiveDevices } from '../api/use-live-devices';
import { DEVICE_STATUS_MS, DEVICE_TEXT, DEVICES_PAGE_SIZE } from '../devices-model';
import { DeviceCard } from './device-card';
import { LiveIndicator } from './device-status';
import { RegisterDeviceDialog } from './register-device-dialog';
import '@/components/console/console.css';
import './devices.css';

/** Devices (staff spec section 2: Devices list), with each booth's live status. */
export function DevicesScreen() {
  const { status, show } = useTimedStatus(DEVICE_STATUS_MS);
  const permissions = useStaffPermissions(show);
  const paging = useSearchPaging();
  const devices = useDevices(paging.search, paging.page);
  const { items, totalPages } = usePagedView(paging, devices, DEVICES_PAGE_SIZE);
  const live = useLiveDevices();
  const [adding, setAdding] = useState(false);

  return (
    <ListPage
      className="console-page"
      title="Devices"
      paging={paging}
      query={devices}
      searchLabel="Search devices"
      searchPlaceholder="Search devices..."
      totalPages={totalPages}
      pagesLabel="Device pages"
      actions={
        <>
          <LiveIndicator connected={live.connected} />
          {permissions.can('device.register') && (
            <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
              +Add
            </button>
          )}
        </>
      }
      after={
        <>
          <Toast status={status} ms={DEVICE_STATUS_MS} />
          {adding && (
            <RegisterDeviceDialog
              onClose={() => setAdding(false)}
              onRegistered={(device) => show('success', DEVICE_TEXT.registered(device.name))}
            />
          )}
        </>
      }
    >
      <ConsoleList
        query={devices}
        items={items}
        listLabel="Devices"
        itemKey={(device) => device.id}
        renderItem={(device) => <DeviceCard device={device} />}
        loadingLabel="Loading devices…"
        renderSkeleton={() => <CardSkeleton />}
        failed={DEVICE_TEXT.loadFailed}
        empty={DEVICE_TEXT.noDevices}
      />
    </ListPage>
  );
}
