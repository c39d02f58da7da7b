import { STATS_MESSAGES } from '@flashbooth/contracts/rules';
import { useEffect } from 'react';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { CardSkeleton } from '@/components/console/card-skeleton';
import { ConsolePage } from '@/components/console/console-page';
import { isRefusal, LoadFailure } from '@/components/console/load-failure';
import { EmptyPanel } from '@/components/ui/list-states';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { useOrganizationStats } from '../api/get-organization-stats';
import {
  detailCards,
  headlineCards,
  monthlySeries,
  type StatCard,
  STATS_STATUS_MS,
  weeklySeries,
} from '../organization-stats-model';
import { RevenueSection } from './revenue-section';
import { ChartCard } from './stats-charts';
import '@/components/console/console.css';
import './organization-stats.css';

function Cards({
  cards,
  className,
  label,
}: {
  cards: StatCard[];
  className: string;
  label: string;
}) {
  return (
    <ul className={`stats-grid ${className}`} aria-label={label}>
      {cards.map((card) => (
        <li key={card.label} className="card stats-card">
          <span className="stats-card-label">{card.label}</span>
          <strong className="stats-card-value">{card.value}</strong>
          {card.detail && <span className="stats-card-detail">{card.detail}</span>}
        </li>
      ))}
    </ul>
  );
}

function StatsSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading statistics…" role="status">
      <div className="stats-grid stats-grid-headline">
        {Array.from({ length: 5 }, (_, index) => (
          <CardSkeleton key={index} />
        ))}
      </div>
      <div className="stats-grid stats-grid-detail">
        {Array.from({ length: 4 }, (_, index) => (
          <CardSkeleton key={index} />
        ))}
      </div>
      <div className="stats-charts">
        <div className="card skeleton stats-chart-skeleton" />
        <div className="card skeleton stats-chart-skeleton" />
      </div>
    </div>
  );
}

/**
 * Organization statistics (staff spec sections 2, 3, 8 and 9): loading (skeleton), then loaded,
 * empty or error. The server leaves the admin-only fields out for members, so their cards (and
 * the revenue) show exactly when it sent them.
 */
export function OrganizationStatsScreen({ orgId, orgName }: { orgId: number; orgName: string }) {
  const { status, show } = useTimedStatus(STATS_STATUS_MS);
  const stats = useOrganizationStats(orgId);
  // A refusal (403) or an organization not there for this person (404) is said in the page.
  const refused = stats.isError && isRefusal(stats.error);
  const failedAt = stats.isError && !refused ? stats.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) show('error', STATS_MESSAGES.loadFailed);
  }, [failedAt, show]);

  // A failed load clears the statistics: the empty state shows, not the last data.
  const data = stats.isError ? undefined : stats.data;

  let body;
  if (stats.isPending) {
    body = <StatsSkeleton />;
  } else if (refused) {
    body = (
      <LoadFailure
        error={stats.error}
        thing="organization"
        failedMessage={STATS_MESSAGES.loadFailed}
        query={stats}
        back={{ href: paths.enterprise.organizations.getHref(), label: 'Back to Organizations' }}
      />
    );
  } else if (!data) {
    body = (
      <EmptyPanel className="console-panel">
        <p>{STATS_MESSAGES.empty}</p>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void stats.refetch()}
          disabled={stats.isFetching}
        >
          Try again
        </button>
      </EmptyPanel>
    );
  } else {
    const weekly = weeklySeries(data);
    const monthly = monthlySeries(data);
    body = (
      <>
        <Cards cards={headlineCards(data)} className="stats-grid-headline" label="Totals" />
        <Cards cards={detailCards(data)} className="stats-grid-detail" label="Details" />
        <div className="stats-charts">
          <ChartCard
            title="Media per Week"
            kind="line"
            period="Week of"
            series={weekly}
            emptyText={STATS_MESSAGES.noWeekly}
          />
          <ChartCard
            title="Media per Month"
            kind="bar"
            period="Month"
            series={monthly}
            emptyText={STATS_MESSAGES.noMonthly}
          />
        </div>
        {data.revenue && <RevenueSection revenue={data.revenue} />}
      </>
    );
  }

  return (
    <ConsolePage
      className="stats-page"
      title={`${orgName} Statistics`}
      breadcrumbs={
        <Breadcrumbs
          items={[
            { label: 'Organizations', href: paths.enterprise.organizations.getHref() },
            { label: orgName, href: paths.enterprise.organization.getHref(orgId) },
            { label: 'Statistics' },
          ]}
        />
      }
      after={<Toast status={status} ms={STATS_STATUS_MS} />}
    >
      {body}
    </ConsolePage>
  );
}
