import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import {
  canvasOf,
  editorScale,
  moveSlot,
  nudgeSlot,
  resizeSlot,
  slotPercentBox,
  type DraftSlot,
  type TemplateDraft,
} from '../template-detail-model';

type Geometry = Pick<DraftSlot, 'x' | 'y' | 'w' | 'h'>;

interface Gesture {
  key: string;
  mode: 'move' | 'resize';
  pointerId: number;
  startX: number;
  startY: number;
  start: DraftSlot;
}

interface SlotEditorProps {
  draft: TemplateDraft;
  foregroundUrl: string | null;
  onChange: (key: string, geometry: Geometry) => void;
  disabled?: boolean;
}

/**
 * The visual slot editor (beyond the spec): the draft's slots drawn over the foreground at scale.
 * Drag a slot to move it, drag its corner to resize it (kept at 3:2); with the keyboard, arrows
 * move a focused slot (Shift: 100 px) and + / - resize it. The number fields follow, and stay
 * the way to type exact values. Geometry is the model's (template-detail-model.ts).
 */
export function SlotEditor({ draft, foregroundUrl, onChange, disabled = false }: SlotEditorProps) {
  const canvas = canvasOf(draft.orientation);
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const gesture = useRef<Gesture | null>(null);
  const [active, setActive] = useState<string | null>(null);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const scale = editorScale(width, canvas);

  const begin = (event: PointerEvent, slot: DraftSlot, mode: Gesture['mode']) => {
    if (disabled || event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    gesture.current = {
      key: slot.key,
      mode,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      start: slot,
    };
    setActive(slot.key);
  };

  const follow = (event: PointerEvent) => {
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId || scale <= 0) return;
    const dx = (event.clientX - current.startX) / scale;
    const dy = (event.clientY - current.startY) / scale;
    const next =
      current.mode === 'move'
        ? moveSlot(current.start, dx, dy, canvas)
        : resizeSlot(current.start, dx, dy, canvas);
    onChange(current.key, { x: next.x, y: next.y, w: next.w, h: next.h });
  };

  const end = (event: PointerEvent) => {
    if (gesture.current?.pointerId === event.pointerId) {
      gesture.current = null;
      setActive(null);
    }
  };

  const onKey = (event: KeyboardEvent, slot: DraftSlot) => {
    if (disabled) return;
    const next = nudgeSlot(slot, event.key, event.shiftKey, canvas);
    if (!next) return;
    event.preventDefault();
    onChange(slot.key, { x: next.x, y: next.y, w: next.w, h: next.h });
  };

  return (
    <div className="slot-editor">
      <div
        ref={frame}
        className={`slot-editor-canvas slot-editor-${draft.orientation}`}
        style={{ aspectRatio: `${canvas.width} / ${canvas.height}` }}
        data-testid="slot-editor"
      >
        {foregroundUrl && (
          <img className="slot-editor-foreground" src={foregroundUrl} alt="" draggable={false} />
        )}
        {draft.is_cut && <span className="slot-editor-cut" aria-hidden="true" />}
        {draft.images.map((slot, index) => {
          const label = `Slot ${index + 1}: x ${Math.round(slot.x)}, y ${Math.round(slot.y)}, ${Math.round(slot.w)} by ${Math.round(slot.h)}`;
          return (
            <div
              key={slot.key}
              role="button"
              tabIndex={disabled ? -1 : 0}
              aria-label={label}
              aria-describedby="slot-editor-help"
              aria-disabled={disabled || undefined}
              className={`slot-editor-slot${active === slot.key ? ' is-active' : ''}`}
              style={slotPercentBox(slot, canvas)}
              onPointerDown={(event) => begin(event, slot, 'move')}
              onPointerMove={follow}
              onPointerUp={end}
              onPointerCancel={end}
              onKeyDown={(event) => onKey(event, slot)}
              data-testid={`slot-box-${index + 1}`}
            >
              <span className="slot-editor-number" aria-hidden="true">
                {index + 1}
              </span>
              <span
                className="slot-editor-handle"
                aria-hidden="true"
                onPointerDown={(event) => begin(event, slot, 'resize')}
                onPointerMove={follow}
                onPointerUp={end}
                onPointerCancel={end}
                data-testid={`slot-handle-${index + 1}`}
              />
            </div>
          );
        })}
      </div>
      <p id="slot-editor-help" className="field-hint slot-editor-help">
        Drag a slot to move it and its corner to resize it (kept at 3:2). On a focused slot, arrow
        keys move it (Shift: farther) and + / − resize it. Canvas {canvas.width}×{canvas.height}px.
      </p>
    </div>
  );
}
