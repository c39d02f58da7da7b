import type { UseQueryResult } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DeleteConfirm,
  DetailActions,
  DetailPage,
  DetailSkeleton,
  RETURN_AFTER_DELETE_MS,
  returnAfterDelete,
} from './detail-page';

describe('returnAfterDelete (delete-and-return)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('goes back to the list 1.5 s after the delete, not before', () => {
    vi.useFakeTimers();
    const leave = vi.fn();
    returnAfterDelete(leave);
    expect(RETURN_AFTER_DELETE_MS).toBe(1500);
    vi.advanceTimersByTime(RETURN_AFTER_DELETE_MS - 1);
    expect(leave).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('stays when the screen is left first (the cancel)', () => {
    vi.useFakeTimers();
    const leave = vi.fn();
    const cancel = returnAfterDelete(leave);
    cancel();
    vi.advanceTimersByTime(RETURN_AFTER_DELETE_MS * 2);
    expect(leave).not.toHaveBeenCalled();
  });
});

const renderActions = (busy: boolean) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <DetailActions
        label="Device actions"
        className="device-actions"
        busy={busy}
        actions={[
          { label: 'Edit Name', onClick: () => undefined },
          { label: 'Link Device', onClick: () => undefined, shown: false },
          { label: 'Ping Device', className: 'btn-primary', onClick: () => undefined, busy: true },
          { label: 'View Logs', href: '/enterprise/devices/1/logs' },
          { label: 'Delete Device', className: 'btn-danger', onClick: () => undefined },
        ]}
      />
    </MemoryRouter>,
  );

describe('DetailActions', () => {
  it('renders the shown actions in order, as buttons and links, in a named group', () => {
    const html = renderActions(false);
    expect(html).toContain('class="console-actions device-actions" role="group"');
    expect(html).toContain('aria-label="Device actions"');
    expect(html).not.toContain('Link Device');
    const labels = [...html.matchAll(/>([^<>]+)<\/(?:button|a)>/g)].map((match) => match[1]);
    expect(labels).toEqual(['Edit Name', 'Ping Device', 'View Logs', 'Delete Device']);
    expect(html).toContain('<button type="button" class="btn btn-secondary">Edit Name</button>');
    expect(html).toContain('class="btn btn-primary" aria-busy="true">Ping Device');
    expect(html).toContain('<a class="btn btn-secondary" href="/enterprise/devices/1/logs"');
    expect(html).toContain('class="btn btn-danger">Delete Device');
  });

  it('turns every button off while a delete runs, the links staying', () => {
    const html = renderActions(true);
    expect(html.match(/disabled=""/g)).toHaveLength(3);
    expect(html).toContain('href="/enterprise/devices/1/logs"');
  });
});

describe('DetailSkeleton', () => {
  it('announces the loading and draws shorter and shorter lines', () => {
    const html = renderToStaticMarkup(
      <DetailSkeleton label="Loading device…" className="card device-panel" lines={3} step={6} />,
    );
    expect(html).toContain('class="card device-panel" aria-busy="true"');
    expect(html).toContain('role="status">Loading device…</span>');
    expect(html.match(/skeleton skeleton-line/g)).toHaveLength(3);
    expect(html).toContain('width:73%');
  });
});

type Device = { id: number; name: string };
const screen = {
  list: { label: 'Devices', href: '/enterprise/devices' },
  status: null,
  statusMs: 5000,
};
const renderPage = (query: Partial<UseQueryResult<Device>>) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <DetailPage
        screen={screen}
        title="Lobby booth"
        query={
          {
            refetch: () => Promise.resolve(),
            isFetching: false,
            ...query,
          } as UseQueryResult<Device>
        }
        skeleton={<p>Loading device…</p>}
        failed={{ thing: 'device', message: 'Failed to load device details.' }}
        actions={<span>Live</span>}
      >
        {(record) => <p>Device {record.id}</p>}
      </DetailPage>
    </MemoryRouter>,
  );

describe('DetailPage', () => {
  it('shows the breadcrumb back to the list, the title, and the skeleton while loading', () => {
    const html = renderPage({ isPending: true, isError: false, data: undefined });
    expect(html).toMatch(/<a href="\/enterprise\/devices"[^>]*>Devices<\/a>/);
    expect(html).toContain('aria-current="page">Lobby booth</span>');
    expect(html).toContain('Loading device…');
    expect(html).toContain('class="page list-page console-page console-narrow"');
    expect(html).not.toContain('Live');
  });

  it('shows the record, with the actions beside the title, once it is there', () => {
    const html = renderPage({ isPending: false, isError: false, data: { id: 7, name: 'Lobby' } });
    expect(html).toContain('<p>Device 7</p>');
    expect(html).toContain('<span>Live</span>');
  });

  it('offers the way back to the list when the record fails to load', () => {
    const html = renderPage({ isPending: false, isError: true, error: new Error('x') });
    expect(html).toContain('Failed to load device details.');
    expect(html).toContain('Back to Devices');
    expect(html).not.toContain('Device 7');
  });
});

describe('DeleteConfirm', () => {
  it('asks "Yes, Delete" while the screen’s dialog is the delete', () => {
    const html = renderToStaticMarkup(
      <DeleteConfirm
        screen={{
          dialog: 'delete',
          remove: { isPending: false, mutate: () => undefined } as never,
          say: () => undefined,
          close: () => undefined,
        }}
        title="Confirm Deletion"
        message="This action cannot be undone."
        deleted="Device deleted successfully."
        failed="Failed to delete device."
      />,
    );
    expect(html).toContain('Confirm Deletion');
    expect(html).toContain('This action cannot be undone.');
    expect(html).toContain('Yes, Delete');
  });
});
