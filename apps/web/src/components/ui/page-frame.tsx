import { useState, type ReactNode, type Ref } from 'react';
import { MessageSlotContext } from './toast';

interface PageFrameProps {
  /** The page's classes after `page list-page` (the screen's width). */
  className: string;
  /** Above the title (the staff console's breadcrumbs). */
  breadcrumbs?: ReactNode;
  title: ReactNode;
  /** The heading, for a screen that moves focus to it (paging). */
  headingRef?: Ref<HTMLHeadingElement>;
  /** Beside the title. */
  actions?: ReactNode;
  /** Under the title. */
  subtitle?: ReactNode;
  children: ReactNode;
}

/**
 * A screen's frame (ListPage, ConsolePage): breadcrumbs, the focusable heading with its actions,
 * and the slot under them where the screen's Toast shows, in the page's flow.
 */
export function PageFrame({
  className,
  breadcrumbs,
  title,
  headingRef,
  actions,
  subtitle,
  children,
}: PageFrameProps) {
  const [messageSlot, setMessageSlot] = useState<HTMLDivElement | null>(null);
  const heading = (
    <h1 className="page-title list-page-title focus-heading" ref={headingRef} tabIndex={-1}>
      {title}
    </h1>
  );
  return (
    <MessageSlotContext.Provider value={messageSlot}>
      <main className={`page list-page ${className}`} id="main">
        {breadcrumbs}
        {actions ? (
          <div className="list-page-header">
            {heading}
            <div className="list-page-actions">{actions}</div>
          </div>
        ) : (
          heading
        )}
        {subtitle && <p className="list-page-subtitle">{subtitle}</p>}
        <div className="page-messages" ref={setMessageSlot} />
        {children}
      </main>
    </MessageSlotContext.Provider>
  );
}
