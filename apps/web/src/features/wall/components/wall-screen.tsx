import { WALL_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { MediaListPage, useMediaList } from '@/components/media/media-list-page';
import { paths } from '@/config/paths';
import { useSearchPaging } from '@/hooks/use-search-paging';
import { useSession } from '@/lib/session';
import { rememberRedirect } from '@/lib/storage';
import { useAddComment } from '../api/add-comment';
import { publicMediaQueryOptions, refetchWallAfter, usePublicMedia } from '../api/get-public-media';
import { useLike } from '../api/toggle-like';
import {
  rememberWallIntent,
  takeWallIntentFor,
  type WallIntent,
  wallItemAnchor,
  wallReturnPath,
} from '../wall-intent';
import { WALL_MESSAGES, WALL_STATUS_MS, wallMessageAt } from '../wall-model';
import { WallCard, WallCardSkeleton } from './wall-card';
import './wall.css';

/**
 * The public wall (spec: visitor.md "Wall (public)", sections 4, 7, 8 and 9). Anyone may read it
 * (spec section 6); a signed-out visitor's Like or Post goes to sign in and is done when they come
 * back, on the same card (wall-intent.ts).
 */
export function WallScreen() {
  const paging = useSearchPaging();
  const { search, page } = paging;
  const { auth } = useSession();
  const signedIn = auth.status === 'authenticated';
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pageKey = publicMediaQueryOptions({ search, page, signedIn }).queryKey;
  const list = useMediaList(paging, usePublicMedia(search, page, signedIn), pageKey, {
    pageSize: WALL_PAGE_SIZE,
    statusMs: WALL_STATUS_MS,
    loadFailed: WALL_MESSAGES.loadFailed,
  });
  const { show } = list;
  const { mutateAsync: like } = useLike();
  const { mutateAsync: comment } = useAddComment();
  /** The card to bring into view and focus once it is on screen (back from signing in). */
  const [focusId, setFocusId] = useState<number | null>(null);
  /** The card whose comments open at once (back from signing in to comment). */
  const [commentsOpenId, setCommentsOpenId] = useState<number | null>(null);
  /** The card already brought into view (once per return from signing in). */
  const focusedId = useRef<number | null>(null);

  /** Keeps what the visitor tapped and sends them to sign in; they come back to this card. */
  const askToSignIn = (intent: WallIntent) => {
    rememberWallIntent(intent);
    rememberRedirect(wallReturnPath(location.search, intent.mediaId));
    void navigate(paths.regular.login.path);
  };

  // Back from signing in: do what was asked (once: taking the intent forgets it), then show
  // the card with the result. Only on the way back to that card (its address fragment): a
  // visitor who left the login and signs in some other time is not surprised by an old tap.
  // The intent is taken only at that card's address, so a render before it (signed in, the
  // fragment not there yet) leaves it for the render that is.
  const arrivedAt = location.hash;
  useEffect(() => {
    if (!signedIn) return;
    const intent = takeWallIntentFor(arrivedAt, Date.now());
    if (!intent) return;
    const { mediaId } = intent;
    void (async () => {
      try {
        if (intent.action === 'like') {
          // A like, not a toggle: liking twice is one like.
          await like(mediaId);
        } else {
          await comment({ mediaId, text: intent.text });
          setCommentsOpenId(mediaId);
          show('success', WALL_MESSAGES.commentAdded, wallMessageAt.comments(mediaId));
        }
      } catch {
        if (intent.action === 'like') {
          show('error', WALL_MESSAGES.likeFailed, wallMessageAt.card(mediaId));
        } else {
          setCommentsOpenId(mediaId);
          show('error', WALL_MESSAGES.commentAddFailed, wallMessageAt.comments(mediaId));
        }
      }
      await refetchWallAfter(queryClient);
      setFocusId(mediaId);
    })();
  }, [signedIn, arrivedAt, show, queryClient, like, comment]);

  const itemsOnScreen = list.items;
  useEffect(() => {
    if (focusId === null || focusedId.current === focusId) return;
    if (!itemsOnScreen.some((item) => item.id === focusId)) return;
    const card = document.getElementById(wallItemAnchor(focusId));
    if (!card) return;
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    card.scrollIntoView({ block: 'center', behavior: still ? 'auto' : 'smooth' });
    card.focus({ preventScroll: true });
    focusedId.current = focusId;
  }, [focusId, itemsOnScreen]);

  return (
    <MediaListPage
      list={list}
      className="wall-page"
      title="Wall"
      searchLabel="Search the wall"
      pagesLabel="Wall pages"
      listClassName="card-grid wall-grid"
      listLabel="Public media"
      actions={
        signedIn ? undefined : (
          <Link
            className="btn btn-secondary wall-sign-in"
            to={paths.regular.login.path}
            // Tapped before the app has started, the page's loader remembers the wall instead.
            data-sign-in-returns=""
            onClick={() => rememberRedirect(`${paths.regular.wall.path}${location.search}`)}
          >
            Sign in<span className="visually-hidden"> to like and comment</span>
          </Link>
        )
      }
      renderItem={(item) => (
        <WallCard
          media={item}
          pageKey={pageKey}
          onSignInToLike={(media) =>
            askToSignIn({ action: 'like', mediaId: media.id, at: Date.now() })
          }
          notify={show}
          status={list.status}
          statusMs={list.statusMs}
          signedIn={signedIn}
          onSignInToComment={(media, text) =>
            askToSignIn({ action: 'comment', mediaId: media.id, text, at: Date.now() })
          }
          commentsOpenAtStart={commentsOpenId === item.id}
        />
      )}
      loadingLabel="Loading the wall…"
      skeletonCount={3}
      Skeleton={WallCardSkeleton}
      emptyText={WALL_MESSAGES.empty}
      emptyRole="status"
    />
  );
}
