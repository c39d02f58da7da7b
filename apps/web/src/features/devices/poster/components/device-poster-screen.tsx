import type { Device } from '@flashbooth/contracts';
import { useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Breadcrumbs } from '@/components/console/breadcrumbs';
import { CardSkeleton } from '@/components/console/card-skeleton';
import { ConsolePage } from '@/components/console/console-page';
import { LoadFailure } from '@/components/console/load-failure';
import { useTimedStatus } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { appConfig } from '@/config/app-config';
import { paths } from '@/config/paths';
import { usePosterDevice } from '../api/get-poster-device';
import {
  boothPosterUrl,
  DEFAULT_POSTER_SIZE,
  POSTER_SIZE_ORDER,
  POSTER_SIZES,
  POSTER_STATUS_MS,
  POSTER_TEXT,
  posterFileName,
  posterPixelSize,
  POSTER_PNG_DPI,
  type PosterSize,
} from '../poster-model';
import { downloadPosterSvg, renderPosterPng } from './poster-export';
import { PosterSheet } from './poster-sheet';
import { qrMatrix } from './qr-matrix';
import { saveBlob } from '@/lib/save-blob';
import '@/components/console/console.css';
import './poster.css';

const T = POSTER_TEXT;

function readSize(raw: string | null): PosterSize {
  return raw === 'a5' || raw === 'a4' ? raw : DEFAULT_POSTER_SIZE;
}

/** The booth's printable QR poster (issue 11): A5 or A4, print, PNG and SVG. */
export function DevicePosterScreen({ deviceId }: { deviceId: number }) {
  const device = usePosterDevice(deviceId);
  const { status, show } = useTimedStatus(POSTER_STATUS_MS);
  const record = device.data;
  const name = record?.name ?? `Device #${deviceId}`;
  const breadcrumbs = (
    <Breadcrumbs
      items={[
        { label: 'Devices', href: paths.enterprise.devices.getHref() },
        { label: name, href: paths.enterprise.device.getHref(deviceId) },
        { label: 'Poster' },
      ]}
    />
  );
  const toast = <Toast status={status} ms={POSTER_STATUS_MS} />;
  const page = (children: React.ReactNode) => (
    <ConsolePage className="poster-screen" breadcrumbs={breadcrumbs} title={T.title} after={toast}>
      {children}
    </ConsolePage>
  );

  if (device.isPending) {
    return page(
      <div className="poster-layout" aria-busy="true">
        <span className="visually-hidden" role="status">
          Loading poster…
        </span>
        <CardSkeleton />
        <div className="poster-stage">
          <div className="poster-paper skeleton" aria-hidden="true" />
        </div>
      </div>,
    );
  }

  if (device.isError || !record) {
    return page(
      <>
        <LoadFailure
          error={device.error}
          thing="device"
          failedMessage={T.loadFailed}
          query={device}
          back={{ href: paths.enterprise.devices.getHref(), label: 'Back to Devices' }}
        />
      </>,
    );
  }

  if (record.org_id === null) {
    return page(
      <div className="card panel-message poster-unlinked" role="status">
        <p>{T.unlinked}</p>
        <Link className="btn btn-secondary" to={paths.enterprise.device.getHref(deviceId)}>
          {T.backToDevice}
        </Link>
      </div>,
    );
  }

  return page(<LinkedPoster device={record} onStatus={show} />);
}

interface LinkedPosterProps {
  device: Device;
  onStatus: (kind: 'success' | 'error', text: string) => void;
}

function LinkedPoster({ device, onStatus }: LinkedPosterProps) {
  const [params, setParams] = useSearchParams();
  const size = readSize(params.get('size'));
  const svgRef = useRef<SVGSVGElement>(null);
  const [makingPng, setMakingPng] = useState(false);
  const url = boothPosterUrl(device.id, appConfig.publicUrl, window.location.origin);
  const qr = useMemo(() => qrMatrix(url), [url]);
  const venueName = device.org_name ?? '';
  const paper = POSTER_SIZES[size];
  const pixels = posterPixelSize(size);

  const chooseSize = (next: PosterSize) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.set('size', next);
        return updated;
      },
      { replace: true },
    );

  const downloadPng = async () => {
    if (!svgRef.current || makingPng) return;
    setMakingPng(true);
    try {
      const blob = await renderPosterPng(svgRef.current, size);
      saveBlob(blob, posterFileName(device.name, device.id, size, 'png'));
      onStatus('success', T.pngReady);
    } catch {
      onStatus('error', T.pngFailed);
    } finally {
      setMakingPng(false);
    }
  };

  const downloadSvg = () => {
    if (!svgRef.current) return;
    downloadPosterSvg(svgRef.current, posterFileName(device.name, device.id, size, 'svg'));
    onStatus('success', T.svgReady);
  };

  return (
    <div className="poster-layout">
      {/* Only the poster prints, on a sheet of the chosen size; it carries its own margins. */}
      <style>{`@page { size: ${paper.label} portrait; margin: 0; }`}</style>
      <section className="card poster-controls" aria-label="Poster options">
        <dl className="console-facts poster-facts">
          <dt>Venue</dt>
          <dd>{venueName}</dd>
          <dt>Booth</dt>
          <dd>{device.name}</dd>
          <dt>Opens</dt>
          <dd>
            <a href={url} className="poster-link" data-testid="poster-link">
              {url}
            </a>
          </dd>
        </dl>
        <fieldset className="poster-sizes">
          <legend>Paper size</legend>
          {POSTER_SIZE_ORDER.map((option) => {
            const choice = POSTER_SIZES[option];
            return (
              <label key={option} className="poster-size">
                <input
                  type="radio"
                  name="poster-size"
                  value={option}
                  checked={size === option}
                  onChange={() => chooseSize(option)}
                />
                <span className="poster-size-label">{choice.label}</span>
                <span className="poster-size-detail">
                  {choice.widthMm} × {choice.heightMm} mm
                </span>
              </label>
            );
          })}
        </fieldset>
        <div className="poster-buttons" role="group" aria-label="Poster actions">
          <button type="button" className="btn btn-primary" onClick={() => window.print()}>
            Print
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void downloadPng()}
            disabled={makingPng}
            aria-busy={makingPng}
          >
            {makingPng ? 'Preparing PNG…' : 'Download PNG'}
          </button>
          <button type="button" className="btn btn-secondary" onClick={downloadSvg}>
            Download SVG
          </button>
        </div>
        <p className="poster-note">
          PNG: {pixels.width} × {pixels.height} px at {POSTER_PNG_DPI} dpi. SVG: vector, prints
          sharp at any size. Print at 100 % (“Actual size”).
        </p>
      </section>
      <div className="poster-stage">
        <div className="poster-paper" data-size={size}>
          <PosterSheet
            size={size}
            venueName={venueName}
            boothName={device.name}
            url={url}
            qr={qr}
            svgRef={svgRef}
          />
        </div>
      </div>
    </div>
  );
}
