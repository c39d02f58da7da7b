import {
  type QueryKey,
  type UseMutationResult,
  type UseQueryResult,
  useQueryClient,
} from '@tanstack/react-query';
import { type ReactNode, useEffect, useEffectEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/ui/dialog';
import { type StatusKind, useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { errorText } from '@/lib/error-text';
import { Breadcrumbs } from './breadcrumbs';
import { ConsolePage } from './console-page';
import { LoadFailure } from './load-failure';
import './console.css';

/** Spec section 9: after a delete, the detail page goes back to its list after 1.5 s. */
export const RETURN_AFTER_DELETE_MS = 1500;

/** Calls `leave` once RETURN_AFTER_DELETE_MS have passed; the answer cancels it. */
export function returnAfterDelete(leave: () => void): () => void {
  const timer = setTimeout(leave, RETURN_AFTER_DELETE_MS);
  return () => clearTimeout(timer);
}

/**
 * Delete-and-return: once `deleted`, the record leaves the cache and the screen goes back to the
 * list (replacing the detail in the history) after RETURN_AFTER_DELETE_MS.
 */
export function useReturnAfterDelete(deleted: boolean, queryKey: QueryKey, listHref: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const leave = useEffectEvent(() => {
    queryClient.removeQueries({ queryKey });
    void navigate(listHref, { replace: true });
  });
  useEffect(() => {
    if (!deleted) return;
    return returnAfterDelete(() => leave());
  }, [deleted]);
}

interface DetailScreenOptions {
  /** The record's delete; the screen's actions are busy while it runs and after it succeeds. */
  remove: UseMutationResult<unknown, Error, void>;
  /** The record's query key, dropped from the cache once it is deleted. */
  queryKey: QueryKey;
  /** The record's list: the first breadcrumb, the way back, where a delete returns to. */
  list: { label: string; href: string };
  /** How long the screen's messages show (spec section 9). */
  statusMs: number;
  /** Runs before each message of the screen's own (a message of another kind to clear). */
  beforeMessage?: () => void;
}

/**
 * A detail screen's state: its toast, the dialog open (`TDialog`, 'edit' or 'delete'), and the
 * delete, after which the screen returns to the list (useReturnAfterDelete).
 */
export function useDetailScreen<TDialog extends string = never>({
  remove,
  queryKey,
  list,
  statusMs,
  beforeMessage,
}: DetailScreenOptions) {
  const { status, show, clear } = useTimedStatus(statusMs);
  const [dialog, setDialog] = useState<'edit' | TDialog | 'delete' | null>(null);
  const deleted = remove.isSuccess;
  useReturnAfterDelete(deleted, queryKey, list.href);

  /** A message of the screen's own (success and error never show together). */
  const say = (kind: StatusKind, text: string) => {
    beforeMessage?.();
    show(kind, text);
  };
  return {
    list,
    status,
    statusMs,
    /** Stable: hand it to useStaffPermissions. */
    show,
    say,
    clear,
    dialog,
    open: setDialog,
    close: () => setDialog(null),
    /** A dialog's success: it closes and the toast says `message`. */
    done: (message: string) => () => {
      setDialog(null);
      say('success', message);
    },
    remove,
    deleted,
    busy: remove.isPending || deleted,
  };
}

export type DetailScreen<TDialog extends string = string> = ReturnType<
  typeof useDetailScreen<TDialog>
>;

interface DetailSkeletonProps {
  /** Announced while the record loads ("Loading device…"). */
  label: string;
  className: string;
  lines?: number;
  /** How much shorter each line is than the one before (percent). */
  step?: number;
}

/** A card standing in for the record while it loads; `label` is announced. */
export function LoadingCard({
  label,
  className,
  children,
}: {
  label: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <div className={className} aria-busy="true">
      <span className="visually-hidden" role="status">
        {label}
      </span>
      {children}
    </div>
  );
}

/** A detail page's placeholder while the record loads: lines, each shorter than the last. */
export function DetailSkeleton({ label, className, lines = 6, step = 9 }: DetailSkeletonProps) {
  return (
    <LoadingCard label={label} className={className}>
      <SkeletonLines className="console-skeleton-lines" lines={lines} step={step} />
    </LoadingCard>
  );
}

interface SkeletonLinesProps {
  className: string;
  lines: number;
  /** The first line's width (percent). */
  first?: number;
  /** How much shorter each line is than the one before (percent). */
  step: number;
}

/** Placeholder lines, each shorter than the last, hidden from screen readers. */
export function SkeletonLines({ className, lines, first = 85, step }: SkeletonLinesProps) {
  return (
    <div aria-hidden="true" className={className}>
      {Array.from({ length: lines }, (_, index) => (
        <span
          key={index}
          className="skeleton skeleton-line"
          style={{ width: `${first - index * step}%` }}
        />
      ))}
    </div>
  );
}

interface DetailPageProps<T> {
  screen: Pick<DetailScreen, 'list' | 'status' | 'statusMs'>;
  /** The screen's own class (its width); `console-narrow` by default. */
  className?: string;
  title: string;
  /** The last breadcrumb; the title by default. */
  crumb?: string;
  query: UseQueryResult<T>;
  /** Shown while the record loads (a DetailSkeleton or the screen's own). */
  skeleton: ReactNode;
  /**
   * When the record does not load: what the page shows ("software channel", for the text when it
   * is not there) and the message when it failed.
   */
  failed: { thing: string; message: string };
  /** Beside the title. */
  actions?: ReactNode;
  /** The page once the record is there. */
  children: (record: T) => ReactNode;
}

/** A detail page: breadcrumbs, title, skeleton, load failure with a way back, and the toast. */
export function DetailPage<T>({
  screen,
  className = 'console-narrow',
  title,
  crumb = title,
  query,
  skeleton,
  failed,
  actions,
  children,
}: DetailPageProps<T>) {
  const { list } = screen;
  const record = query.data;
  const ready = !query.isPending && !query.isError && record !== undefined;
  return (
    <ConsolePage
      className={className}
      breadcrumbs={<Breadcrumbs items={[list, { label: crumb }]} />}
      title={title}
      actions={ready ? actions : undefined}
      after={<Toast status={screen.status} ms={screen.statusMs} />}
    >
      {query.isPending ? (
        skeleton
      ) : query.isError || record === undefined ? (
        <LoadFailure
          error={query.error}
          thing={failed.thing}
          failedMessage={failed.message}
          query={query}
          back={{ href: list.href, label: `Back to ${list.label}` }}
        />
      ) : (
        children(record)
      )}
    </ConsolePage>
  );
}

/** One of a detail page's actions: a button or a link, shown only when `shown` is not false. */
export type DetailAction = {
  label: ReactNode;
  /** Whether the person may (or the record lets them) take it. */
  shown?: boolean;
  /** The button's class after `btn` ("btn-primary"); `btn-secondary` by default. */
  className?: string;
} & (
  | {
      onClick: () => void;
      /** Off besides while the screen is busy. */
      disabled?: boolean;
      /** Its own call runs (aria-busy). */
      busy?: boolean;
      href?: never;
    }
  | { href: string; onClick?: never }
);

interface DetailActionsProps {
  /** "Device actions": the group's name. */
  label: string;
  className: string;
  actions: readonly DetailAction[];
  /** A delete runs or has run: every button is off (links stay). */
  busy: boolean;
}

/** A detail page's actions, in order, those not shown left out. */
export function DetailActions({ label, className, actions, busy }: DetailActionsProps) {
  return (
    <div className={`console-actions ${className}`} role="group" aria-label={label}>
      {actions.map((action, index) => {
        if (action.shown === false) return null;
        const classes = `btn ${action.className ?? 'btn-secondary'}`;
        if (action.href !== undefined) {
          return (
            <Link key={index} className={classes} to={action.href}>
              {action.label}
            </Link>
          );
        }
        return (
          <button
            key={index}
            type="button"
            className={classes}
            onClick={action.onClick}
            disabled={busy || action.disabled}
            aria-busy={action.busy || undefined}
          >
            {action.label}
          </button>
        );
      })}
    </div>
  );
}

interface ConfirmMutationProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  mutation: UseMutationResult<unknown, Error, void>;
  /** The toast once it went through. */
  success: string;
  /** The toast when it failed and the server said nothing. */
  failed: string;
  say: (kind: StatusKind, text: string) => void;
  onClose: () => void;
}

/**
 * A danger confirmation whose Yes runs `mutation`; it stays open (busy) while the call runs and
 * closes after, the outcome in the screen's toast.
 */
export function ConfirmMutation({
  open,
  title,
  message,
  confirmLabel,
  mutation,
  success,
  failed,
  say,
  onClose,
}: ConfirmMutationProps) {
  return (
    <ConfirmDialog
      open={open}
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      danger
      busy={mutation.isPending}
      onCancel={onClose}
      onConfirm={() =>
        mutation.mutate(undefined, {
          onSuccess: () => say('success', success),
          onError: (error) => say('error', errorText(error, failed)),
          onSettled: onClose,
        })
      }
    />
  );
}

interface DeleteConfirmProps {
  screen: Pick<DetailScreen, 'dialog' | 'remove' | 'say' | 'close'>;
  title: string;
  message: string;
  /** The toast once deleted; the screen then returns to its list. */
  deleted: string;
  failed: string;
}

/** The detail's delete confirmation ("Yes, Delete"), open while the screen's dialog is 'delete'. */
export function DeleteConfirm({ screen, title, message, deleted, failed }: DeleteConfirmProps) {
  return (
    <ConfirmMutation
      open={screen.dialog === 'delete'}
      title={title}
      message={message}
      confirmLabel="Yes, Delete"
      mutation={screen.remove}
      success={deleted}
      failed={failed}
      say={screen.say}
      onClose={screen.close}
    />
  );
}
