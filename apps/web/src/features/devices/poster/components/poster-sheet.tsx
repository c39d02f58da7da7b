import { type Ref, useId } from 'react';
import {
  DESIGN,
  POSTER_TEXT,
  posterLayout,
  printedUrl,
  qrPath,
  QR_QUIET_ZONE,
  type PosterSize,
  type QrMatrix,
} from '../poster-model';

const INK = '#16121f';
const MUTED = '#4a4458';
const BRAND = '#ff5a7a';
const BRAND_STRONG = '#d12f56';
const ACCENT = '#ffb547';
/** Fonts every system has a cousin of: the SVG file and the PNG must look the same elsewhere. */
const FONT = "Poppins, Inter, 'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif";

interface PosterSheetProps {
  size: PosterSize;
  venueName: string;
  boothName: string;
  /** The booth's short link, which the code holds. */
  url: string;
  qr: QrMatrix;
  svgRef?: Ref<SVGSVGElement>;
}

/**
 * The whole poster as one SVG in paper millimetres: what the screen shows, what prints, and what
 * the SVG and PNG downloads are made of. The design is drawn in A4 units (see posterLayout).
 */
export function PosterSheet({ size, venueName, boothName, url, qr, svgRef }: PosterSheetProps) {
  const titleId = useId();
  const address = printedUrl(url);
  const layout = posterLayout(size, venueName, boothName, address);
  const { paper } = layout;
  const centre = DESIGN.width / 2;
  const band = { x: DESIGN.margin, y: DESIGN.margin, width: DESIGN.width - 2 * DESIGN.margin };
  const moduleSize = layout.qr.size / (qr.size + 2 * QR_QUIET_ZONE);
  return (
    <svg
      ref={svgRef}
      xmlns="http://www.w3.org/2000/svg"
      width={`${paper.widthMm}mm`}
      height={`${paper.heightMm}mm`}
      viewBox={`0 0 ${paper.widthMm} ${paper.heightMm}`}
      role="img"
      aria-labelledby={titleId}
      className="poster-sheet"
      data-size={size}
    >
      <title id={titleId}>
        {`${POSTER_TEXT.instruction}: ${boothName} at ${venueName}, ${url}`}
      </title>
      <rect width={paper.widthMm} height={paper.heightMm} fill="#ffffff" />
      <g
        transform={`translate(0 ${round(layout.offsetY)}) scale(${round(layout.scale)})`}
        fontFamily={FONT}
      >
        <rect x={band.x} y={band.y} width={band.width} height={40} rx={6} fill={INK} />
        {/* The brand mark (favicon.svg), 24 mm. */}
        <g transform={`translate(${band.x + 10} ${band.y + 8}) scale(0.375)`}>
          <rect width="64" height="64" rx="14" fill={INK} stroke="#ffffff" strokeOpacity="0.25" />
          <circle cx="32" cy="34" r="14" fill="none" stroke={ACCENT} strokeWidth="6" />
          <rect x="20" y="12" width="24" height="8" rx="3" fill={BRAND} />
          <circle cx="32" cy="34" r="5" fill={BRAND} />
        </g>
        <text x={band.x + 42} y={band.y + 23} fontSize={14} fontWeight={700} fill="#ffffff">
          Flashbooth
        </text>
        <text x={band.x + 42} y={band.y + 32} fontSize={5} fontWeight={600} fill={ACCENT}>
          {POSTER_TEXT.tagline}
        </text>
        <rect x={band.x} y={band.y + 43} width={band.width * 0.64} height={2.5} fill={BRAND} />
        <rect
          x={band.x + band.width * 0.64}
          y={band.y + 43}
          width={band.width * 0.36}
          height={2.5}
          fill={ACCENT}
        />

        <text
          textAnchor="middle"
          fontSize={layout.venue.fontSize}
          fontWeight={700}
          fill={INK}
          data-testid="poster-venue"
        >
          {layout.venue.lines.map((line, index) => (
            <tspan key={index} x={centre} y={round(layout.venue.baselines[index]!)}>
              {line}
            </tspan>
          ))}
        </text>
        <text
          textAnchor="middle"
          fontSize={layout.booth.fontSize}
          fontWeight={500}
          fill={MUTED}
          data-testid="poster-booth"
        >
          {layout.booth.lines.map((line, index) => (
            <tspan key={index} x={centre} y={round(layout.booth.baselines[index]!)}>
              {line}
            </tspan>
          ))}
        </text>

        <rect
          x={layout.card.x}
          y={layout.card.y}
          width={layout.card.size}
          height={layout.card.size}
          rx={6}
          fill="#ffffff"
          stroke={INK}
          strokeWidth={1.2}
        />
        <g
          transform={`translate(${layout.qr.x} ${layout.qr.y}) scale(${round(moduleSize)})`}
          data-testid="poster-qr"
        >
          <path d={qrPath(qr)} fill="#000000" shapeRendering="crispEdges" />
        </g>

        <text
          x={centre}
          y={layout.instructionY}
          textAnchor="middle"
          fontSize={11}
          fontWeight={700}
          fill={INK}
        >
          {POSTER_TEXT.instruction}
        </text>
        <text
          x={centre}
          y={layout.urlY}
          textAnchor="middle"
          fontSize={round(layout.urlFontSize)}
          fontWeight={600}
          fill={BRAND_STRONG}
          data-testid="poster-url"
        >
          {address}
        </text>
        <text x={centre} y={layout.footerY} textAnchor="middle" fontSize={4} fill={MUTED}>
          {POSTER_TEXT.footer}
        </text>
      </g>
    </svg>
  );
}

/** Four decimals: enough for 1/10 000 mm, short enough to keep the file tidy. */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
