import type { KioskWall, KioskWallItem } from '@flashbooth/contracts';
import { KIOSK_WALL_SLIDE_MS, WALL_MESSAGES } from '@flashbooth/contracts/rules';
import QRCode from 'qrcode';
import { useEffect, useMemo, useState } from 'react';
import { appConfig } from '@/config/app-config';
import { ApiError } from '@/lib/api-client';
import { useReducedMotion } from '@/hooks/use-media-query';
import { useKioskWall } from './api';
import {
  KIOSK_SLIDE_MS_REDUCED,
  boothUrl,
  indexAfterReload,
  likesText,
  qrBoothId,
  qrPathOf,
} from './kiosk-model';
import { useKioskEvents } from './use-kiosk-events';
import './kiosk-wall.css';

/**
 * The QR code of the booth's page (the `qrcode` library the booth posters use), error correction
 * M: a screen is not scuffed like a poster, and fewer modules read from further away.
 */
function BoothQr({ url }: { url: string }) {
  const { path, viewBox } = useMemo(() => {
    const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' });
    return qrPathOf(modules.size, (row, column) => Boolean(modules.get(row, column)));
  }, [url]);
  return (
    <svg
      className="kiosk-qr-code"
      viewBox={`0 0 ${viewBox} ${viewBox}`}
      role="img"
      aria-label={`QR code to ${url}`}
      shapeRendering="crispEdges"
    >
      <rect width={viewBox} height={viewBox} fill="#fff" />
      <path d={path} fill="#16121f" />
    </svg>
  );
}

function Venue({ wall }: { wall: KioskWall }) {
  return (
    <div className="kiosk-venue">
      {wall.organization.logo_url && (
        <img className="kiosk-logo" src={wall.organization.logo_url} alt="" />
      )}
      <p className="kiosk-venue-name">{wall.organization.name}</p>
    </div>
  );
}

function QrCard({ wall, item }: { wall: KioskWall; item: KioskWallItem | undefined }) {
  const boothId = qrBoothId(wall, item);
  if (boothId === null) return null;
  const url = boothUrl(boothId, appConfig.publicUrl, window.location.origin);
  return (
    <div className="kiosk-qr">
      <BoothQr url={url} />
      <p className="kiosk-qr-text">
        <strong>Get yours!</strong> Scan to use the booth
      </p>
    </div>
  );
}

/** One item full size: the photo, or a motion item playing muted on a loop. */
function Slide({ item, reduced }: { item: KioskWallItem; reduced: boolean }) {
  const alt = item.caption
    ? `${item.first_name}'s photo: ${item.caption}`
    : `${item.first_name}'s photo`;
  if (item.video_url) {
    return (
      <video
        key={item.id}
        className="kiosk-media"
        src={item.video_url}
        poster={item.image_url ?? undefined}
        muted
        loop
        playsInline
        autoPlay={!reduced}
        aria-label={alt}
      />
    );
  }
  if (!item.image_url) return null;
  return <img key={item.id} className="kiosk-media" src={item.image_url} alt={alt} />;
}

/**
 * A venue's wall for a screen (`/wall/{orgId}`, no session): its newest public photos one after
 * another (KIOSK_WALL_SLIDE_MS each; twice as long and without a fade when reduced motion is
 * asked for; Pause stops it), a photo just made public first, with the venue's logo and a QR
 * code to the booth. Live through server-sent events, reloaded every few minutes besides.
 */
export function KioskWallScreen({ orgId }: { orgId: number | null }) {
  const query = useKioskWall(orgId ?? 0);
  const wall = orgId === null ? undefined : query.data;
  /** A photo just made public: shown as soon as the items are loaded again, wherever it stands. */
  const [wantedId, setWantedId] = useState<number | null>(null);
  useKioskEvents(orgId ?? 0, orgId !== null && !query.isError, (event) => {
    if (event.on_wall) setWantedId(event.media_id);
  });
  const reduced = useReducedMotion();
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const items = useMemo(() => wall?.items ?? [], [wall]);

  // The items changed (a live event or a reload): keep the photo on screen, or show a new one.
  const ids = items.map((item) => item.id);
  const [seenIds, setSeenIds] = useState<number[]>([]);
  if (seenIds.join(',') !== ids.join(',')) {
    setSeenIds(ids);
    setIndex(indexAfterReload(seenIds, ids, seenIds[index]));
  }
  if (wantedId !== null && ids.includes(wantedId)) {
    setWantedId(null);
    setIndex(ids.indexOf(wantedId));
  }

  const count = items.length;
  useEffect(() => {
    if (paused || count < 2) return;
    const timer = setInterval(
      () => setIndex((current) => (current + 1) % count),
      reduced ? KIOSK_SLIDE_MS_REDUCED : KIOSK_WALL_SLIDE_MS,
    );
    return () => clearInterval(timer);
  }, [paused, count, reduced, seenIds]);

  const item = items[index % Math.max(1, count)];
  const next = count > 1 ? items[(index + 1) % count] : undefined;

  if (orgId === null || (query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <main className="kiosk kiosk-message-only">
        <p className="kiosk-message" role="alert">
          {WALL_MESSAGES.kioskNotFound}
        </p>
      </main>
    );
  }
  if (!wall) {
    return (
      <main className="kiosk kiosk-message-only" aria-busy={!query.isError}>
        <p className="kiosk-message" role="status">
          {query.isError ? (
            WALL_MESSAGES.kioskLoadFailed
          ) : (
            <>
              <span className="spinner" aria-hidden="true" /> Loading the wall…
            </>
          )}
        </p>
      </main>
    );
  }

  const likes = item ? likesText(item.likes_count) : null;
  return (
    <main
      className={reduced ? 'kiosk kiosk-still' : 'kiosk'}
      aria-label={`${wall.organization.name} wall`}
    >
      <section className="kiosk-stage" aria-roledescription="carousel" aria-label="Photos">
        {item ? (
          <div
            className="kiosk-slide"
            key={item.id}
            data-testid="kiosk-slide"
            data-media-id={item.id}
            aria-live={paused ? 'polite' : 'off'}
          >
            <Slide item={item} reduced={reduced} />
          </div>
        ) : (
          <p className="kiosk-message kiosk-empty" role="status">
            {WALL_MESSAGES.kioskEmpty}
          </p>
        )}
        {/* The next photo loads while this one shows, so the change is instant. */}
        {next?.image_url && <link rel="prefetch" as="image" href={next.image_url} />}
      </section>
      <aside className="kiosk-panel">
        <Venue wall={wall} />
        {item && (
          <div className="kiosk-caption">
            <p className="kiosk-who">
              {item.first_name}
              {item.device_name && <span className="kiosk-where"> at {item.device_name}</span>}
            </p>
            {item.caption && <p className="kiosk-text">{item.caption}</p>}
            {likes && (
              <p className="kiosk-likes">
                <span aria-hidden="true">♥</span> {likes}
              </p>
            )}
          </div>
        )}
        <QrCard wall={wall} item={item} />
        {count > 1 && (
          <div className="kiosk-controls">
            <span className="kiosk-count" aria-hidden="true">
              {(index % count) + 1} / {count}
            </span>
            <button
              type="button"
              className="kiosk-pause"
              aria-pressed={paused}
              onClick={() => setPaused((value) => !value)}
            >
              {paused ? 'Play' : 'Pause'}
            </button>
          </div>
        )}
      </aside>
    </main>
  );
}
