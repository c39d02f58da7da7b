import QRCode from 'qrcode';
import type { QrMatrix } from '../poster-model';

/**
 * The QR code of `text` from the `qrcode` library (kept, widely used, no dependencies of its own
 * in the browser). Error correction Q (25 %): a poster on a venue wall gets scuffed and creased.
 * Imported only by the poster screen, whose route module is lazy, so it never reaches a visitor.
 */
export function qrMatrix(text: string): QrMatrix {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'Q' });
  return { size: modules.size, isDark: (row, column) => Boolean(modules.get(row, column)) };
}
