import type { ReactNode } from 'react';
import { PageFrame } from '@/components/ui/page-frame';
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
  return (
    <PageFrame
      className={`console-page ${className ?? ''}`}
      breadcrumbs={breadcrumbs}
      title={title}
      actions={actions}
    >
      {children}
      {after}
    </PageFrame>
  );
}
