/** What a media card's file buttons do: save the HD file, save the GIF, share. */
export type MediaFileAction = 'download' | 'gif' | 'share';

const LABELS: Record<MediaFileAction, { idle: string; busy: string }> = {
  download: { idle: 'Download HD', busy: 'Downloading…' },
  gif: { idle: 'Download GIF', busy: 'Downloading…' },
  share: { idle: 'Share', busy: 'Sharing…' },
};

interface MediaFileButtonsProps {
  /** The card's heading, which names the item for each button. */
  describedBy: string;
  /** The item has a GIF (the gif kind): Download GIF shows. */
  gif: boolean;
  /** The browser can share: Share shows. */
  canShare: boolean;
  /** Whether the action's own call runs (its label says so, and a press is ignored). */
  busy: (action: MediaFileAction) => boolean;
  run: (action: MediaFileAction) => void;
  /** Added to each button's classes. */
  className?: string;
}

/** Download HD, Download GIF (gif items) and Share (where the browser can): My Media and staff cards. */
export function MediaFileButtons({
  describedBy,
  gif,
  canShare,
  busy,
  run,
  className,
}: MediaFileButtonsProps) {
  const button = (action: MediaFileAction, kind: 'primary' | 'secondary') => (
    <button
      type="button"
      className={`btn btn-${kind}${className ? ` ${className}` : ''}`}
      aria-describedby={describedBy}
      aria-disabled={busy(action) || undefined}
      onClick={() => run(action)}
    >
      {busy(action) ? LABELS[action].busy : LABELS[action].idle}
    </button>
  );
  return (
    <>
      {button('download', 'primary')}
      {gif && button('gif', 'secondary')}
      {canShare && button('share', 'secondary')}
    </>
  );
}
