import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ConsolePage } from './console-page';

/**
 * A staff screen of a later release: the navigation keeps its tab (spec section 2), and the tab
 * says so instead of ending in "Page not found".
 */
export function ComingSoon({ title }: { title: string }) {
  return (
    <ConsolePage className="console-narrow" title={title}>
      <div className="card panel-message coming-soon" role="status">
        <span className="coming-soon-badge">Coming soon</span>
        <p>This part of the console is not available yet.</p>
        <p className="panel-message-hint">Organizations, their users and guests are ready.</p>
        <Link className="btn btn-primary" to={paths.enterprise.organizations.getHref()}>
          Go to Organizations
        </Link>
      </div>
    </ConsolePage>
  );
}
