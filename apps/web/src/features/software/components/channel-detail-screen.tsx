import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { Link } from 'react-router';
import { useStaffPermissions } from '@/components/console/use-staff-permissions';
import { DetailPage, DetailSkeleton, useDetailScreen } from '@/components/console/detail-page';
import { paths } from '@/config/paths';
import { useDeleteChannel } from '../api/delete-channel';
import { channelQueryOptions, useChannel } from '../api/get-channel';
import { linkedReleaseLabel, SOFTWARE_SCREEN_TEXT, SOFTWARE_STATUS_MS } from '../software-model';
import { DetailFacts, SoftwareActions } from './software-detail';
import { EditChannelDialog } from './edit-channel-dialog';
import { LinkReleaseDialog } from './link-release-dialog';
import { RolloutPanel } from './rollout-panel';
import '@/components/console/console.css';
import './software.css';

const M = SOFTWARE_MESSAGES;

/** Software channel detail (staff spec section 2); only mounted for those who may manage software. */
export function ChannelDetailScreen({ channelId }: { channelId: number }) {
  const screen = useDetailScreen<'link'>({
    remove: useDeleteChannel(channelId),
    queryKey: channelQueryOptions(channelId).queryKey,
    list: { label: 'Software Channels', href: paths.enterprise.channels.getHref() },
    statusMs: SOFTWARE_STATUS_MS,
  });
  const permissions = useStaffPermissions(screen.show);
  const channel = useChannel(channelId);
  const title = channel.data?.name ?? 'Software Channel';

  return (
    <DetailPage
      screen={screen}
      className="console-narrow software-page"
      title={title}
      crumb={title}
      query={channel}
      skeleton={<DetailSkeleton label="Loading channel…" className="card software-detail" />}
      failed={{ thing: 'software channel', message: M.loadChannelFailed }}
    >
      {(record) => (
        <>
          <SoftwareActions
            screen={screen}
            noun="Channel"
            edit="Edit Channel"
            step={{
              dialog: 'link',
              label: record.release_id !== null ? 'Change Release' : 'Link Release',
            }}
            remove={{
              message: SOFTWARE_SCREEN_TEXT.deleteChannel(record.name),
              deleted: M.channelDeleted,
              failed: M.deleteChannelFailed,
            }}
          />

          <div className="card software-detail">
            <DetailFacts record={record}>
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
            </DetailFacts>
          </div>

          <RolloutPanel
            channelId={record.id}
            releaseVersion={record.release_version ?? null}
            canManage={permissions.can('software.manage')}
          />

          {screen.dialog === 'edit' && (
            <EditChannelDialog
              channel={record}
              onClose={screen.close}
              onSaved={screen.done(M.channelUpdated)}
            />
          )}
          {screen.dialog === 'link' && (
            <LinkReleaseDialog
              channel={record}
              onClose={screen.close}
              onSaved={screen.done(M.channelLinked)}
            />
          )}
        </>
      )}
    </DetailPage>
  );
}
