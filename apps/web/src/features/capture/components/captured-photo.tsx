import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getUploadedMedia } from '../api/get-uploaded-media';

/** The preview is made just after the upload: ask every 2 s, at most this many times. */
const PREVIEW_POLL_MS = 2000;
const PREVIEW_POLL_ATTEMPTS = 10;

/**
 * The photo just taken, on the success panel: the first item's low-resolution preview (small
 * enough for a venue's mobile network; a motion item's poster) once the server has made it.
 * Until then a placeholder of the print's shape; if it never comes the panel simply goes
 * without it.
 */
export function CapturedPhoto({ mediaIds, alt }: { mediaIds: number[]; alt: string }) {
  const queryClient = useQueryClient();
  const queryKey = ['media', 'uploaded', 'preview', mediaIds] as const;
  const query = useQuery({
    queryKey,
    queryFn: () => getUploadedMedia(mediaIds),
    refetchInterval: (q) => {
      const item = q.state.data?.media_items.find((entry) => entry.lowres_s3_url);
      return item || q.state.dataUpdateCount >= PREVIEW_POLL_ATTEMPTS ? false : PREVIEW_POLL_MS;
    },
  });
  const items = query.data?.media_items ?? [];
  const shown = items.find((item) => item.lowres_s3_url);
  const orientation = shown?.orientation ?? items[0]?.orientation ?? 'landscape';
  const answers = queryClient.getQueryState(queryKey)?.dataUpdateCount ?? 0;
  const gaveUp = !shown && (query.isError || answers >= PREVIEW_POLL_ATTEMPTS);
  if (gaveUp) return null;
  return (
    <figure className={`capture-photo capture-photo-${orientation}`} data-testid="captured-photo">
      {shown ? (
        <img src={shown.lowres_s3_url!} alt={alt} />
      ) : (
        <div className="skeleton capture-photo-placeholder" aria-hidden="true" />
      )}
    </figure>
  );
}
