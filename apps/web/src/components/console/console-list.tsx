import type { ReactNode } from 'react';
import {
  EmptyPanel,
  ListBody,
  type ListBodyProps,
  LoadErrorPanel,
} from '@/components/ui/list-states';

type ConsoleListProps<T> = Omit<
  ListBodyProps<T>,
  'listClassName' | 'skeletonCount' | 'error' | 'empty'
> & {
  query: ListBodyProps<T>['query'] & { refetch: () => Promise<unknown> };
  /** The list's classes; the console's card grid by default. */
  listClassName?: string;
  skeletonCount?: number;
  /**
   * When the load failed: a message, shown in the console's error panel with Try again, or the
   * screen's own element (a LoadFailure with a way back).
   */
  failed: ReactNode;
  /** The empty panel's content: a text (one paragraph) or the screen's own. */
  empty: ReactNode;
};

/**
 * A console list's body (ListBody) in the console's card grid, six skeleton cards, the error
 * panel with Try again and the empty panel.
 */
export function ConsoleList<T>({
  listClassName = 'card-grid console-grid',
  skeletonCount = 6,
  failed,
  empty,
  ...list
}: ConsoleListProps<T>) {
  return (
    <ListBody
      {...list}
      listClassName={listClassName}
      skeletonCount={skeletonCount}
      error={
        typeof failed === 'string' ? (
          <LoadErrorPanel
            className="card panel-message panel-message-error console-panel"
            message={failed}
            query={list.query}
          />
        ) : (
          failed
        )
      }
      empty={
        <EmptyPanel className="console-panel">
          {typeof empty === 'string' ? <p>{empty}</p> : empty}
        </EmptyPanel>
      }
    />
  );
}
