import { useId, useState } from 'react';
import { LoadErrorPanel } from '@/components/ui/list-states';
import { useModerationLog } from '../api/get-moderation-log';
import {
  MODERATION_LOG_MESSAGES as M,
  MODERATION_LOG_PAGE_SIZE,
  moderationLogLine,
  moderationLogRange,
} from '../moderation-log-model';

/**
 * The organization's moderation log on its media page, for those who moderate there: a
 * disclosure that loads when opened, newest first, ten entries a page with Newer and Older.
 */
export function ModerationLogPanel({ orgId }: { orgId: number }) {
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const [offset, setOffset] = useState(0);
  const log = useModerationLog(orgId, offset, open);

  let body = null;
  if (open) {
    if (log.isPending) {
      body = (
        <div aria-busy="true" className="moderation-log-loading">
          <span className="visually-hidden" role="status">
            Loading the moderation log…
          </span>
          <div className="skeleton skeleton-line" style={{ width: '80%' }} aria-hidden="true" />
          <div className="skeleton skeleton-line" style={{ width: '60%' }} aria-hidden="true" />
        </div>
      );
    } else if (log.isError) {
      body = <LoadErrorPanel className="moderation-log-error" message={M.loadFailed} query={log} />;
    } else if (log.data.total_count === 0) {
      body = <p className="moderation-log-empty">{M.empty}</p>;
    } else {
      const { items, total_count: total } = log.data;
      body = (
        <>
          <ol className="moderation-log-list" aria-labelledby={headingId}>
            {items.map((entry) => {
              const line = moderationLogLine(entry);
              return (
                <li key={entry.id} className="moderation-log-entry">
                  <span>{line.text}</span>
                  <time dateTime={`${entry.created_at}Z`}>{line.when}</time>
                </li>
              );
            })}
          </ol>
          <div className="moderation-log-pager">
            <p role="status">{moderationLogRange(offset, items.length, total)}</p>
            <div className="moderation-log-pager-buttons">
              <button
                type="button"
                className="btn btn-secondary"
                disabled={offset === 0 || log.isFetching}
                onClick={() => setOffset(Math.max(0, offset - MODERATION_LOG_PAGE_SIZE))}
              >
                Newer
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={offset + items.length >= total || log.isFetching}
                onClick={() => setOffset(offset + MODERATION_LOG_PAGE_SIZE)}
              >
                Older
              </button>
            </div>
          </div>
        </>
      );
    }
  }

  return (
    <details
      className="card moderation-log"
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className="moderation-log-summary">
        <span id={headingId} className="moderation-log-title">
          {M.title}
        </span>
      </summary>
      <p className="moderation-log-intro">{M.intro}</p>
      {body}
    </details>
  );
}
