import {
  releaseCreatedMessage,
  SOFTWARE_MESSAGES,
  SOFTWARE_PAGE_SIZE,
} from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { ConsoleList } from '@/components/console/console-list';
import { ListPage } from '@/components/ui/list-page';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { useReleases } from '../api/get-releases';
import { SOFTWARE_SCREEN_TEXT, SOFTWARE_STATUS_MS } from '../software-model';
import { CreateReleaseDialog } from './create-release-dialog';
import { ReleaseCard } from './release-card';
import { SoftwareCardSkeleton } from './software-card';
import '@/components/console/console.css';
import './software.css';

const M = SOFTWARE_MESSAGES;

/** Software releases (staff spec section 2); only mounted for those who may manage software. */
export function ReleasesScreen() {
  const { status, show } = useTimedStatus(SOFTWARE_STATUS_MS);
  const paging = useSearchPaging();
  const { search, page } = paging;
  const releases = useReleases(search, page);
  const { items, totalPages } = usePagedView(paging, releases, SOFTWARE_PAGE_SIZE);
  const [creating, setCreating] = useState(false);

  return (
    <ListPage
      className="console-page software-page"
      title="Software Releases"
      paging={paging}
      query={releases}
      searchLabel="Search releases"
      searchPlaceholder="Search releases..."
      totalPages={totalPages}
      pagesLabel="Software release pages"
      actions={
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          +Create Release
        </button>
      }
      after={
        <>
          <Toast status={status} ms={SOFTWARE_STATUS_MS} />
          {creating && (
            <CreateReleaseDialog
              onClose={() => setCreating(false)}
              onCreated={(release) => {
                setCreating(false);
                show('success', releaseCreatedMessage(release.version));
              }}
            />
          )}
        </>
      }
    >
      <ConsoleList
        query={releases}
        items={items}
        listLabel="Software releases"
        itemKey={(release) => release.id}
        renderItem={(release) => <ReleaseCard release={release} />}
        loadingLabel="Loading software releases…"
        renderSkeleton={() => <SoftwareCardSkeleton />}
        failed={M.loadReleasesFailed}
        empty={search ? SOFTWARE_SCREEN_TEXT.noReleaseSearchMatch(search) : M.noReleases}
      />
    </ListPage>
  );
}
