import { saveBlob } from '@/lib/save-blob';
import { posterPixelSize, withPngResolution, type PosterSize } from '../poster-model';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The poster as a standalone SVG file's text; `pixels` sets its drawing size (for the PNG). */
export function posterSvgText(svg: SVGSVGElement, pixels?: { width: number; height: number }) {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.removeAttribute('class');
  if (pixels) {
    copy.setAttribute('width', String(pixels.width));
    copy.setAttribute('height', String(pixels.height));
  }
  return XML_DECLARATION + new XMLSerializer().serializeToString(copy);
}

/** Downloads the whole poster as SVG (vector, printable at any size). */
export function downloadPosterSvg(svg: SVGSVGElement, fileName: string): void {
  saveBlob(new Blob([posterSvgText(svg)], { type: 'image/svg+xml' }), fileName);
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The poster image did not load.'));
    image.src = url;
  });
}

function canvasBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The canvas made no PNG.'))),
      'image/png',
    );
  });
}

/**
 * Renders the poster into a PNG at print resolution (300 dpi for the chosen paper) through a
 * canvas: the SVG is drawn at the final pixel size, so the code's edges stay sharp.
 */
export async function renderPosterPng(svg: SVGSVGElement, size: PosterSize): Promise<Blob> {
  const pixels = posterPixelSize(size);
  const source = new Blob([posterSvgText(svg, pixels)], { type: 'image/svg+xml' });
  const url = URL.createObjectURL(source);
  try {
    const image = await loadImage(url);
    const canvas = document.createElement('canvas');
    canvas.width = pixels.width;
    canvas.height = pixels.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No canvas.');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, pixels.width, pixels.height);
    context.drawImage(image, 0, 0, pixels.width, pixels.height);
    const png = new Uint8Array(await (await canvasBlob(canvas)).arrayBuffer());
    // Release the canvas's memory (A4 at 300 dpi is 35 MB) before the download starts.
    canvas.width = 0;
    canvas.height = 0;
    return new Blob([withPngResolution(png)], { type: 'image/png' });
  } finally {
    URL.revokeObjectURL(url);
  }
}
