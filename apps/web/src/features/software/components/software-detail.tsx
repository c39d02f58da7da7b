import type { ReactNode } from 'react';
import { DeleteConfirm, DetailActions, type DetailScreen } from '@/components/console/detail-page';
import { formatUtcTimestamp } from '@/lib/format-date';
import { createdByLabel } from '../software-model';

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

interface SoftwareActionsProps<TStep extends string> {
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
export function SoftwareActions<TStep extends string>({
  screen,
  noun,
  edit,
  step,
  remove,
}: SoftwareActionsProps<TStep>) {
  return (
    <>
      <DetailActions
        label={`${noun} actions`}
        className="software-actions"
        busy={screen.busy}
        actions={[
          { label: edit, className: 'btn-primary', onClick: () => screen.open('edit') },
          { label: step.label, onClick: () => screen.open(step.dialog) },
          {
            label: `Delete ${noun}`,
            className: 'btn-danger',
            onClick: () => screen.open('delete'),
          },
        ]}
      />
      <DeleteConfirm
        screen={screen}
        title={`Delete ${noun}`}
        message={remove.message}
        deleted={remove.deleted}
        failed={remove.failed}
      />
    </>
  );
}
