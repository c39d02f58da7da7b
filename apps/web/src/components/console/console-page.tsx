import { useState, type ReactNode } from 'react';
import { MessageSlotContext } from '@/components/ui/toast';
import './console.css';

interface ConsolePageProps {
  /** The screen's own class (its width). */
  className?: string;
  breadcrumbs?: ReactNode;
  title: ReactNode;
  /** Beside the title. */
  actions?: ReactNode;
  children: ReactNode;
  /** After the content (dialogs); the screen's Toast placed here shows under the heading. */
  after?: ReactNode;
}

/** A staff screen that is not a list (a detail page): breadcrumbs, heading, content, message. */
export function ConsolePage({
  className,
  breadcrumbs,
  title,
  actions,
  children,
  after,
}: ConsolePageProps) {
  const heading = (
    <h1 className="page-title list-page-title focus-heading" tabIndex={-1}>
      {title}
    </h1>
  );
  // Where the screen's Toast shows: under the heading and actions, in the page's flow.
  const [messageSlot, setMessageSlot] = useState<HTMLDivElement | null>(null);
  return (
    <MessageSlotContext.Provider value={messageSlot}>
      <main className={`page list-page console-page ${className ?? ''}`} id="main">
        {breadcrumbs}
        {actions ? (
          <div className="list-page-header">
            {heading}
            <div className="list-page-actions">{actions}</div>
          </div>
        ) : (
          heading
        )}
        <div className="page-messages" ref={setMessageSlot} />
        {children}
        {after}
      </main>
    </MessageSlotContext.Provider>
  );
}
