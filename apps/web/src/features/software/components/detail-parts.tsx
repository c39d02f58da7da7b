import {
  type QueryKey,
  type UseMutationResult,
  type UseQueryResult,
  useQueryClient,
} from '@tanstack/react-query';
import { type ReactNode, useEffect, useEffectEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { ConsolePage } from '@/components/console/console-page';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadFailure } from '@/components/console/load-failure';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { formatUtcTimestamp } from '@/lib/format-date';
import {
  createdByLabel,
  failureText,
  RETURN_AFTER_DELETE_MS,
  SOFTWARE_STATUS_MS,
} from '../software-model';

/** A detail page's placeholder while the record loads. */
function DetailSkeleton({ label }: { label: string }) {
  return (
    <div className="card software-detail" aria-busy="true">
      <span className="visually-hidden" role="status">
        {label}
      </span>
      <div aria-hidden="true" className="software-detail-skeleton">
        {Array.from({ length: 6 }, (_, index) => (
          <span
            key={index}
            className="skeleton skeleton-line"
            style={{ width: `${85 - index * 9}%` }}
          />
        ))}
      </div>
    </div>
  );
}

/**
 * A detail screen's toast, open dialog and delete. Once the delete succeeds the record leaves the
 * cache and the screen goes back to the list after 1.5 s (spec); until then the actions are busy.
 */
export function useDetailScreen<TStep extends string>(
  remove: UseMutationResult<void, Error, void>,
  queryKey: QueryKey,
  listHref: string,
) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { status, show } = useTimedStatus(SOFTWARE_STATUS_MS);
  const [dialog, setDialog] = useState<'edit' | TStep | 'delete' | null>(null);
  const deleted = remove.isSuccess;
  const leave = useEffectEvent(() => {
    queryClient.removeQueries({ queryKey });
    void navigate(listHref, { replace: true });
  });

  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => leave(), RETURN_AFTER_DELETE_MS);
    return () => clearTimeout(timer);
  }, [deleted]);

  return {
    status,
    show,
    dialog,
    open: setDialog,
    close: () => setDialog(null),
    /** A dialog's success: it closes and the toast says `message`. */
    done: (message: string) => () => {
      setDialog(null);
      show('success', message);
    },
    remove,
    busy: remove.isPending || deleted,
  };
}

type DetailScreen<TStep extends string = string> = ReturnType<typeof useDetailScreen<TStep>>;

interface DetailPageProps<T> {
  screen: Pick<DetailScreen, 'status'>;
  /** The record's list: the first breadcrumb, and the way back when the record fails to load. */
  list: { label: string; href: string };
  title: string;
  crumb: string;
  query: UseQueryResult<T>;
  /** Announced while the record loads. */
  loadingLabel: string;
  loadFailed: string;
  /** What the page shows ("software channel"), for the text when it is not there. */
  thing: string;
  /** The page once the record is there. */
  children: (record: T) => ReactNode;
}

/** A software detail page: breadcrumbs, skeleton, load failure with a way back, and the toast. */
export function DetailPage<T>({
  screen,
  list,
  title,
  crumb,
  query,
  loadingLabel,
  loadFailed,
  thing,
  children,
}: DetailPageProps<T>) {
  const record = query.data;
  return (
    <ConsolePage
      className="console-narrow software-page"
      breadcrumbs={<Breadcrumbs items={[list, { label: crumb }]} />}
      title={title}
      after={<Toast status={screen.status} ms={SOFTWARE_STATUS_MS} />}
    >
      {query.isPending ? (
        <DetailSkeleton label={loadingLabel} />
      ) : query.isError || !record ? (
        <>
          <LoadFailure
            error={query.error}
            thing={thing}
            failedMessage={loadFailed}
            query={query}
            back={{ href: list.href, label: `Back to ${list.label}` }}
          />
        </>
      ) : (
        children(record)
      )}
    </ConsolePage>
  );
}

interface DetailFactsProps {
  record: {
    id: number;
    created_at: string;
    created_by: number | null;
    created_by_name: string | null;
  };
  /** Between ID and Created At. */
  children: ReactNode;
  /** After Created By. */
  after?: ReactNode;
}

/** The detail's facts: ID, the record's own, Created At and Created By. */
export function DetailFacts({ record, children, after }: DetailFactsProps) {
  return (
    <dl className="console-facts software-facts">
      <dt>ID</dt>
      <dd>{record.id}</dd>
      {children}
      <dt>Created At</dt>
      <dd>{formatUtcTimestamp(record.created_at)}</dd>
      <dt>Created By</dt>
      <dd>{createdByLabel(record)}</dd>
      {after}
    </dl>
  );
}

interface DetailActionsProps<TStep extends string> {
  screen: DetailScreen<TStep>;
  /** "Channel": names the group, the delete button and its confirmation. */
  noun: string;
  edit: string;
  /** The record's own step (link a release, upload the file) and the dialog it opens. */
  step: { dialog: TStep; label: string };
  /** The confirmation's question, the toast once deleted, the failure if the server says none. */
  remove: { message: string; deleted: string; failed: string };
}

/**
 * Edit, the record's own step and Delete, all off while a delete runs and after it; and the
 * delete's confirmation, whose outcome shows in the screen's toast.
 */
export function DetailActions<TStep extends string>({
  screen,
  noun,
  edit,
  step,
  remove,
}: DetailActionsProps<TStep>) {
  const button = (className: string, dialog: 'edit' | TStep | 'delete', label: string) => (
    <button
      type="button"
      className={`btn ${className}`}
      onClick={() => screen.open(dialog)}
      disabled={screen.busy}
    >
      {label}
    </button>
  );
  return (
    <>
      <div className="console-actions software-actions" role="group" aria-label={`${noun} actions`}>
        {button('btn-primary', 'edit', edit)}
        {button('btn-secondary', step.dialog, step.label)}
        {button('btn-danger', 'delete', `Delete ${noun}`)}
      </div>
      <ConfirmDialog
        open={screen.dialog === 'delete'}
        title={`Delete ${noun}`}
        message={remove.message}
        confirmLabel="Yes, Delete"
        danger
        busy={screen.remove.isPending}
        onCancel={screen.close}
        onConfirm={() =>
          screen.remove.mutate(undefined, {
            onSuccess: () => screen.show('success', remove.deleted),
            onError: (error) => screen.show('error', failureText(error, remove.failed)),
            onSettled: screen.close,
          })
        }
      />
    </>
  );
}
