import {
  LAYOUT_NAMES,
  LAYOUTS,
  layoutLabel,
  openings,
  qrPlacements,
  type LayoutName,
} from '../template-studio-model';

/** A small drawing of the layout: the canvas, its photo openings and QR code(s). */
function LayoutDiagram({ layout }: { layout: LayoutName }) {
  const { canvas } = LAYOUTS[layout];
  return (
    <svg
      className="studio-diagram"
      viewBox={`0 0 ${canvas.width} ${canvas.height}`}
      aria-hidden="true"
      focusable="false"
    >
      <rect width={canvas.width} height={canvas.height} rx="60" className="studio-diagram-paper" />
      {openings(layout).map((opening, index) => (
        <rect
          key={index}
          x={opening.x}
          y={opening.y}
          width={opening.w}
          height={opening.h}
          rx={opening.radius * 2}
          className="studio-diagram-slot"
        />
      ))}
      {qrPlacements(layout).map((qr, index) => (
        <rect
          key={`qr-${index}`}
          x={qr.x}
          y={qr.y}
          width={qr.w}
          height={qr.h}
          className="studio-diagram-qr"
        />
      ))}
    </svg>
  );
}

/** The three layouts as radio cards (arrow keys move between them). */
export function LayoutPicker({
  value,
  onChange,
  disabled,
}: {
  value: LayoutName;
  onChange: (layout: LayoutName) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="studio-layouts" disabled={disabled}>
      <legend className="studio-step-title">1. Choose a layout</legend>
      <div className="studio-layout-options">
        {LAYOUT_NAMES.map((layout) => (
          <label
            key={layout}
            className={`studio-layout ${value === layout ? 'studio-layout-selected' : ''}`}
          >
            <input
              type="radio"
              name="studio-layout"
              value={layout}
              checked={value === layout}
              onChange={() => onChange(layout)}
            />
            <LayoutDiagram layout={layout} />
            <span className="studio-layout-name">{layout}</span>
            <span className="studio-layout-detail">{layoutLabel(layout)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
