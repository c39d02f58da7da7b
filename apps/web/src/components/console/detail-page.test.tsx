import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DetailActions,
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
