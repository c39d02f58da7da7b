import { SOFTWARE_MESSAGES, SOFTWARE_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { ConsoleList } from '@/components/console/console-list';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { useChannels } from '../api/get-channels';
import { SOFTWARE_SCREEN_TEXT, SOFTWARE_STATUS_MS } from '../software-model';
import { ChannelCard } from './channel-card';
import { CreateChannelDialog } from './create-channel-dialog';
import { SoftwareCardSkeleton } from './software-card';
import '@/components/console/console.css';
import './software.css';

const M = SOFTWARE_MESSAGES;

/** Software channels (staff spec section 2); only mounted for those who may manage software. */
export function ChannelsScreen() {
  const { status, show } = useTimedStatus(SOFTWARE_STATUS_MS);
  const paging = useSearchPaging();
  const { search, page } = paging;
  const channels = useChannels(search, page);
  const { items, totalPages } = usePagedView(paging, channels, SOFTWARE_PAGE_SIZE);
  const [creating, setCreating] = useState(false);

  return (
    <ListPage
      className="console-page software-page"
      title="Software Channels"
      paging={paging}
      query={channels}
      searchLabel="Search channels"
      searchPlaceholder="Search channels..."
      totalPages={totalPages}
      pagesLabel="Software channel pages"
      actions={
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          +Create Channel
        </button>
      }
      after={
        <>
          <Toast status={status} ms={SOFTWARE_STATUS_MS} />
          {creating && (
            <CreateChannelDialog
              onClose={() => setCreating(false)}
              onCreated={() => {
                setCreating(false);
                show('success', M.channelCreated);
              }}
            />
          )}
        </>
      }
    >
      <ConsoleList
        query={channels}
        items={items}
        listLabel="Software channels"
        itemKey={(channel) => channel.id}
        renderItem={(channel) => <ChannelCard channel={channel} />}
        loadingLabel="Loading software channels…"
        renderSkeleton={() => <SoftwareCardSkeleton />}
        failed={M.loadChannelsFailed}
        empty={search ? SOFTWARE_SCREEN_TEXT.noChannelSearchMatch(search) : M.noChannels}
      />
    </ListPage>
  );
}
