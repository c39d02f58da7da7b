import type { Template } from '@flashbooth/contracts';
import { TEMPLATE_ORIENTATIONS } from '@flashbooth/contracts/rules';
import { CaptureKindFields } from './capture-kind-fields';
import { useEffect, useId, useRef, useState } from 'react';
import { errorText } from '@/lib/error-text';
import { usePrintPreview } from '../api/print-preview';
import {
  FILTER_OPTIONS,
  SLOT_FIELDS,
  TEMPLATE_DETAIL_TEXT as T,
  addSlot,
  motionProblem,
  parseSlotNumber,
  previewRequest,
  removeSlot,
  slotProblem,
  slotProblemFields,
  updateSlot,
  type TemplateDraft,
} from '../template-detail-model';
import { PrintPreviewDialog } from './print-preview-dialog';
import { SlotEditor } from './slot-editor';

interface EditPanelProps {
  template: Template;
  draft: TemplateDraft;
  onDraft: (draft: TemplateDraft) => void;
  saving: boolean;
  error: string | null;
  onSave: () => void;
  onCancel: () => void;
}

/**
 * The template detail's inline edit panel (staff spec sections 2 and 4): name, orientation,
 * is_cut, is_duplicated, what the booth captures (photo or a motion kind with its settings) and
 * the image slots of the draft, the visual slot editor, and the true
 * print preview of the draft. Cancel discards the draft; Save applies it in the spec's order.
 */
export function TemplateEditPanel({
  template,
  draft,
  onDraft,
  saving,
  error,
  onSave,
  onCancel,
}: EditPanelProps) {
  const id = useId();
  const preview = usePrintPreview(template.id);
  const [previewOpen, setPreviewOpen] = useState(false);
  const title = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // Edit Template opens the panel below the template: bring it into view and move focus to it,
  // so the click visibly does something (issue 20, item 5).
  useEffect(() => {
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    title.current?.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
    title.current?.focus({ preventScroll: true });
  }, []);
  const problems = draft.images.map((slot, index) => slotProblem(slot, index, draft.orientation));
  // Filters the booth does not know stay selectable for the slot that has one (printed unfiltered).
  const filterChoices = (current: string) =>
    FILTER_OPTIONS.includes(current) ? FILTER_OPTIONS : [...FILTER_OPTIONS, current];

  return (
    <form
      className="card template-edit"
      aria-label="Edit template"
      ref={form}
      onSubmit={(event) => {
        event.preventDefault();
        // A slot's problem is already written under it: take the person there instead of
        // repeating it as the panel's error.
        const first = problems.findIndex((problem) => problem !== null);
        if (first >= 0) {
          form.current
            ?.querySelector<HTMLInputElement>(`[data-slot-input="${first + 1}"]`)
            ?.focus();
          return;
        }
        // The same for the capture settings: their problem is written under them.
        if (motionProblem(draft)) {
          form.current
            ?.querySelector<HTMLElement>('[data-testid="capture-kind-fields"] input[type="number"]')
            ?.focus();
          return;
        }
        onSave();
      }}
    >
      <h2 className="template-edit-title" ref={title} tabIndex={-1}>
        Edit Template
      </h2>
      <fieldset className="template-edit-fields" disabled={saving}>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            className="input"
            value={draft.name}
            maxLength={100}
            onChange={(event) => onDraft({ ...draft, name: event.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-orientation`}>Orientation</label>
          <select
            id={`${id}-orientation`}
            className="select"
            value={draft.orientation}
            onChange={(event) =>
              onDraft({ ...draft, orientation: event.target.value as TemplateDraft['orientation'] })
            }
          >
            {TEMPLATE_ORIENTATIONS.map((value) => (
              <option key={value} value={value}>
                {value === 'portrait' ? 'Portrait' : 'Landscape'}
              </option>
            ))}
          </select>
        </div>
        <div className="template-edit-checks">
          <label className="template-check">
            <input
              type="checkbox"
              checked={draft.is_cut}
              onChange={(event) => onDraft({ ...draft, is_cut: event.target.checked })}
            />
            <span>
              {T.cutLabel} <span className="field-hint">{T.cutHint}</span>
            </span>
          </label>
          <label className="template-check">
            <input
              type="checkbox"
              checked={draft.is_duplicated}
              onChange={(event) => onDraft({ ...draft, is_duplicated: event.target.checked })}
            />
            <span>
              {T.duplicatedLabel} <span className="field-hint">{T.duplicatedHint}</span>
            </span>
          </label>
        </div>

        <CaptureKindFields draft={draft} onDraft={onDraft} />

        <div className="template-slots-head">
          <h3>Image slots</h3>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => onDraft(addSlot(draft))}
          >
            + Add Slot
          </button>
        </div>

        <SlotEditor
          draft={draft}
          foregroundUrl={template.foreground_s3_url}
          disabled={saving}
          onChange={(key, geometry) => onDraft(updateSlot(draft, key, geometry))}
        />

        {draft.images.length === 0 ? (
          <p className="field-hint">No image slots yet. Use "+ Add Slot" to add one.</p>
        ) : (
          <ol className="template-slot-list">
            {draft.images.map((slot, index) => {
              const problem = problems[index];
              const problemId = `${id}-${slot.key}-problem`;
              const invalid = problem ? slotProblemFields(slot, draft.orientation) : [];
              return (
                <li
                  key={slot.key}
                  className="template-slot-row"
                  data-testid={`slot-row-${index + 1}`}
                >
                  <span className="template-slot-name">
                    Slot {index + 1}
                    {slot.id === undefined && <span className="console-badge">new</span>}
                  </span>
                  {SLOT_FIELDS.map((field) => (
                    <div className="field template-slot-field" key={field}>
                      <label htmlFor={`${id}-${slot.key}-${field}`}>{field}</label>
                      <input
                        id={`${id}-${slot.key}-${field}`}
                        className="input"
                        type="number"
                        inputMode="decimal"
                        step="any"
                        value={Number.isFinite(slot[field]) ? slot[field] : ''}
                        aria-label={`Slot ${index + 1} ${field}`}
                        aria-invalid={invalid.includes(field) ? true : undefined}
                        aria-describedby={problem ? problemId : undefined}
                        data-slot-input={field === 'x' ? index + 1 : undefined}
                        onChange={(event) =>
                          onDraft(
                            updateSlot(draft, slot.key, {
                              [field]: parseSlotNumber(event.target.value),
                            }),
                          )
                        }
                      />
                    </div>
                  ))}
                  <div className="field template-slot-field template-slot-filter">
                    <label htmlFor={`${id}-${slot.key}-filter`}>filter</label>
                    <select
                      id={`${id}-${slot.key}-filter`}
                      className="select"
                      value={slot.filter}
                      aria-label={`Slot ${index + 1} filter`}
                      onChange={(event) =>
                        onDraft(updateSlot(draft, slot.key, { filter: event.target.value }))
                      }
                    >
                      {filterChoices(slot.filter).map((name) => (
                        <option key={name} value={name}>
                          {name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <button
                    type="button"
                    className="btn btn-secondary template-slot-remove"
                    aria-label={`Remove slot ${index + 1}`}
                    onClick={() => onDraft(removeSlot(draft, slot.key))}
                  >
                    Remove
                  </button>
                  {problem && (
                    <p className="field-error template-slot-problem" id={problemId}>
                      {problem}
                    </p>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </fieldset>

      {error && (
        <p className="status status-error" role="alert">
          {error}
        </p>
      )}

      <div className="console-actions template-edit-actions">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={saving || preview.isPending}
          onClick={() => {
            setPreviewOpen(true);
            preview.mutate(previewRequest(draft));
          }}
        >
          Preview print
        </button>
        <span className="template-edit-spacer" />
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={saving}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save'}
        </button>
      </div>

      <PrintPreviewDialog
        open={previewOpen}
        image={preview.data ?? null}
        pending={preview.isPending}
        error={preview.error ? errorText(preview.error, T.previewFailed) : null}
        isCut={draft.is_cut}
        orientation={draft.orientation}
        onClose={() => {
          setPreviewOpen(false);
          preview.reset();
        }}
      />
    </form>
  );
}
