import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { ConsolePage } from '@/components/console/console-page';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadErrorPanel } from '@/components/ui/list-states';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { formatUtcTimestamp } from '@/lib/format-date';
import { useDeleteChannel } from '../api/delete-channel';
import { channelQueryOptions, useChannel } from '../api/get-channel';
import {
  createdByLabel,
  failureText,
  linkedReleaseLabel,
  RETURN_AFTER_DELETE_MS,
  SOFTWARE_SCREEN_TEXT,
  SOFTWARE_STATUS_MS,
} from '../software-model';
import { BackLink, DetailSkeleton } from './detail-parts';
import { EditChannelDialog } from './edit-channel-dialog';
import { LinkReleaseDialog } from './link-release-dialog';
import { RolloutPanel } from './rollout-panel';
import '@/components/console/console.css';
import './software.css';

const M = SOFTWARE_MESSAGES;

/** Software channel detail (staff spec section 2); only mounted for those who may manage software. */
export function ChannelDetailScreen({ channelId }: { channelId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { status, show } = useTimedStatus(SOFTWARE_STATUS_MS);
  const permissions = useStaffPermissions(show);
  const channel = useChannel(channelId);
  const remove = useDeleteChannel(channelId);
  const [dialog, setDialog] = useState<'edit' | 'link' | 'delete' | null>(null);
  const deleted = remove.isSuccess;

  // Spec: after a delete, back to the list after 1.5 s.
  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => {
      queryClient.removeQueries({ queryKey: channelQueryOptions(channelId).queryKey });
      void navigate(paths.enterprise.channels.getHref(), { replace: true });
    }, RETURN_AFTER_DELETE_MS);
    return () => clearTimeout(timer);
  }, [deleted, navigate, channelId, queryClient]);

  const record = channel.data;
  const title = record?.name ?? 'Software Channel';
  const breadcrumbs = (
    <Breadcrumbs
      items={[
        { label: 'Software Channels', href: paths.enterprise.channels.getHref() },
        { label: title },
      ]}
    />
  );
  const toast = <Toast status={status} ms={SOFTWARE_STATUS_MS} />;
  const page = (children: React.ReactNode, actions?: React.ReactNode) => (
    <ConsolePage
      className="console-narrow software-page"
      breadcrumbs={breadcrumbs}
      title={title}
      actions={actions}
      after={toast}
    >
      {children}
    </ConsolePage>
  );

  if (channel.isPending) return page(<DetailSkeleton label="Loading channel…" />);
  if (channel.isError || !record) {
    return page(
      <>
        <LoadErrorPanel
          className="card panel-message panel-message-error console-panel"
          message={M.loadChannelFailed}
          query={channel}
        />
        <BackLink to={paths.enterprise.channels.getHref()}>Back to Software Channels</BackLink>
      </>,
    );
  }

  const busy = remove.isPending || deleted;
  const linked = record.release_id !== null;

  return page(
    <>
      <div className="console-actions software-actions" role="group" aria-label="Channel actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setDialog('edit')}
          disabled={busy}
        >
          Edit Channel
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => setDialog('link')}
          disabled={busy}
        >
          {linked ? 'Change Release' : 'Link Release'}
        </button>
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => setDialog('delete')}
          disabled={busy}
        >
          Delete Channel
        </button>
      </div>

      <div className="card software-detail">
        <dl className="console-facts software-facts">
          <dt>ID</dt>
          <dd>{record.id}</dd>
          <dt>Name</dt>
          <dd>{record.name}</dd>
          <dt>Description</dt>
          <dd className={record.description ? 'software-prose' : 'muted'}>
            {record.description || SOFTWARE_SCREEN_TEXT.noDescription}
          </dd>
          <dt>Linked Release</dt>
          <dd data-testid="linked-release">
            {record.release_id !== null ? (
              <Link to={paths.enterprise.release.getHref(record.release_id)}>
                {linkedReleaseLabel(record)}
              </Link>
            ) : (
              linkedReleaseLabel(record)
            )}
          </dd>
          <dt>Created At</dt>
          <dd>{formatUtcTimestamp(record.created_at)}</dd>
          <dt>Created By</dt>
          <dd>{createdByLabel(record)}</dd>
        </dl>
      </div>

      <RolloutPanel
        channelId={record.id}
        releaseVersion={record.release_version ?? null}
        canManage={permissions.can('software.manage')}
      />

      {dialog === 'edit' && (
        <EditChannelDialog
          channel={record}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            show('success', M.channelUpdated);
          }}
        />
      )}
      {dialog === 'link' && (
        <LinkReleaseDialog
          channel={record}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            show('success', M.channelLinked);
          }}
        />
      )}
      <ConfirmDialog
        open={dialog === 'delete'}
        title="Delete Channel"
        message={SOFTWARE_SCREEN_TEXT.deleteChannel(record.name)}
        confirmLabel="Yes, Delete"
        danger
        busy={remove.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => show('success', M.channelDeleted),
            onError: (error) => show('error', failureText(error, M.deleteChannelFailed)),
            onSettled: () => setDialog(null),
          })
        }
      />
    </>,
  );
}
