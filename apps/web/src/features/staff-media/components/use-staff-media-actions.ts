import type { StaffMediaItem } from '@flashbooth/contracts';
import { MEDIA_LIBRARY_MESSAGES as M } from '@flashbooth/contracts/rules';
import type { QueryKey } from '@tanstack/react-query';
import { downloadGif, downloadMedia, shareMedia } from '@/components/media/media-files';
import type { StatusKind } from '@/components/ui/status-message';
import { errorText } from '@/lib/error-text';
import { useSetWallHidden } from '../api/set-wall-hidden';
import { staffMessageAt } from '../staff-media-model';
import type { StaffCardAction } from './staff-media-card';

/**
 * What a card's buttons do on both views: Download HD and Share with the visitor screens' logic
 * and messages, and Hide from wall / Show on wall, which updates the page on screen.
 */
export function useStaffMediaActions(
  pageKey: QueryKey,
  showOnScreen: (kind: StatusKind, text: string, at?: string) => void,
) {
  // The card waits for its action's answer (StaffMediaCard: one action at a time per card).
  const wall = useSetWallHidden(pageKey);

  return async (item: StaffMediaItem, action: StaffCardAction): Promise<void> => {
    // The card shows the message under its buttons.
    const show = (kind: StatusKind, text: string) =>
      showOnScreen(kind, text, staffMessageAt(item.id));
    if (action === 'wall') {
      try {
        const state = await wall.mutateAsync({ id: item.id, hidden: !item.hidden_from_wall });
        show('success', state.hidden_from_wall ? M.hidden : M.shown);
      } catch (error) {
        show('error', errorText(error, M.hideFailed));
      }
      return;
    }
    const outcome =
      action === 'download'
        ? await downloadMedia(item)
        : action === 'gif'
          ? await downloadGif(item)
          : await shareMedia(item);
    if (outcome.kind !== 'silent') show(outcome.kind, outcome.text);
  };
}
