import type { StaffMediaItem } from '@flashbooth/contracts';
import type { MediaFileAction } from '@/components/media/media-file-buttons';
import { downloadGif, downloadMedia, shareMedia } from '@/components/media/media-files';
import type { StatusKind } from '@/components/ui/status-message';
import { staffMessageAt } from '../staff-media-model';

/**
 * What a card's file buttons do on both views: Download HD, Download GIF and Share with the
 * visitor screens' logic and messages (Hide from wall / Show on wall is the card's own mutation).
 */
export function useStaffMediaActions(
  showOnScreen: (kind: StatusKind, text: string, at?: string) => void,
) {
  return async (item: StaffMediaItem, action: MediaFileAction): Promise<void> => {
    const outcome =
      action === 'download'
        ? await downloadMedia(item)
        : action === 'gif'
          ? await downloadGif(item)
          : await shareMedia(item);
    // The card shows the message under its buttons.
    if (outcome.kind !== 'silent')
      showOnScreen(outcome.kind, outcome.text, staffMessageAt(item.id));
  };
}
