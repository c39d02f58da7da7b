import type { LayoutName } from '../template-studio-model';

/** Page → worker: one Studio run. The design File goes by reference (no pixel copy). */
export interface StudioRequest {
  run: number;
  layout: LayoutName;
  design: Blob;
  /** The address the QR code(s) carry. */
  qrText: string;
  /** The five sample photos' addresses (fetched and decoded once by the worker). */
  photoUrls: readonly string[];
}

/** Worker → page: the outputs as Blobs (passed by reference), or the message to show. */
export type StudioResponse =
  | { run: number; ok: true; png: Blob; jpg: Blob; overlayPreview: Blob; ms: number }
  | { run: number; ok: false; message: string };
