import { Link } from 'react-router';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { ConsolePage } from '@/components/console/console-page';
import { isRefusal, LoadFailure } from '@/components/console/load-failure';
import { ConsoleList } from '@/components/console/console-list';
import { ListPage } from '@/components/ui/list-page';
import { paths } from '@/config/paths';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { formatUtcTimestamp } from '@/lib/format-date';
import { errorText } from '@/lib/error-text';
import { useDevice } from '../api/get-device';
import { useDeviceErrors } from '../api/get-device-errors';
import { DEVICE_LOGS_PAGE_SIZE, DEVICE_TEXT, showingRange } from '../devices-model';
import '@/components/console/console.css';
import './devices.css';

function LogSkeleton() {
  return (
    <div className="card device-log" aria-hidden="true">
      <span className="skeleton skeleton-line" style={{ width: '30%' }} />
      <span className="skeleton skeleton-line" style={{ width: '90%', marginTop: 10 }} />
    </div>
  );
}

/** Device error logs (staff spec section 2): newest first, searchable, 10 to a page. */
export function DeviceLogsScreen({ deviceId }: { deviceId: number }) {
  const paging = useSearchPaging();
  const logs = useDeviceErrors(deviceId, paging.search, paging.page);
  // Only for the breadcrumb (usually cached from the detail); "Device #id" until it is known.
  const device = useDevice(deviceId);
  const { items, totalPages } = usePagedView(paging, logs, DEVICE_LOGS_PAGE_SIZE);
  const showing =
    logs.data && !logs.isError
      ? showingRange(paging.page, DEVICE_LOGS_PAGE_SIZE, logs.data.total_count)
      : null;
  const back = (
    <p className="device-back">
      <Link to={paths.enterprise.device.getHref(deviceId)}>← Back to Device</Link>
    </p>
  );
  const breadcrumbs = (
    <Breadcrumbs
      items={[
        { label: 'Devices', href: paths.enterprise.devices.getHref() },
        {
          label: device.data?.name ?? `Device #${deviceId}`,
          href: paths.enterprise.device.getHref(deviceId),
        },
        { label: 'Error Logs' },
      ]}
    />
  );

  // Refused (only super users and product admins read logs) or no such device for this person:
  // no search and no Try again, only the way back.
  if (logs.isError && isRefusal(logs.error)) {
    return (
      <ConsolePage className="console-narrow" breadcrumbs={breadcrumbs} title="Error Logs">
        <LoadFailure
          error={logs.error}
          thing="device"
          failedMessage={DEVICE_TEXT.logsFailed}
          query={logs}
          back={
            device.isError
              ? { href: paths.enterprise.devices.getHref(), label: 'Back to Devices' }
              : { href: paths.enterprise.device.getHref(deviceId), label: 'Back to Device' }
          }
        />
      </ConsolePage>
    );
  }

  return (
    <ListPage
      className="console-page console-narrow"
      title="Error Logs"
      subtitle={`Device #${deviceId}`}
      breadcrumbs={breadcrumbs}
      paging={paging}
      query={logs}
      searchLabel="Search logs"
      searchPlaceholder="Search logs…"
      totalPages={totalPages}
      pagesLabel="Log pages"
      after={back}
    >
      {showing && (
        <p className="device-showing" aria-live="polite">
          {showing}
        </p>
      )}
      <ConsoleList
        query={logs}
        items={items}
        listClassName="card-grid device-logs"
        listLabel="Error log entries"
        itemKey={(entry) => entry.id}
        renderItem={(entry) => (
          <article className="card device-log" data-testid="device-log">
            <time className="device-log-time" dateTime={`${entry.created_at}Z`}>
              {formatUtcTimestamp(entry.created_at)}
            </time>
            <pre className="device-log-message">{entry.error_message}</pre>
          </article>
        )}
        loadingLabel="Loading error logs…"
        skeletonCount={4}
        renderSkeleton={() => <LogSkeleton />}
        failed={errorText(logs.error, DEVICE_TEXT.logsFailed)}
        empty={DEVICE_TEXT.noLogs}
      />
    </ListPage>
  );
}
