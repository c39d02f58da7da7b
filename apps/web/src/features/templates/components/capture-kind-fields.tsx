import {
  CAPTURE_KINDS,
  CAPTURE_KIND_LABELS,
  MOTION_RULES,
  TEMPLATE_MESSAGES,
  type CaptureKind,
} from '@flashbooth/contracts/rules';
import { useId } from 'react';
import {
  MOTION_SPEEDS,
  motionProblem,
  parseSlotNumber,
  speedLabel,
  type TemplateDraft,
} from '../template-detail-model';

/** One line under each kind's name: what the booth does with it. */
const KIND_HINTS: Record<CaptureKind, string> = {
  photo: 'Photos composed into the print.',
  gif: 'A few stills played as a loop.',
  boomerang: 'A short burst played forward, then backward.',
  video: 'A short clip.',
};

/**
 * The edit panel's capture settings: the kind (Photo, GIF, Boomerang, Video) and, for a motion
 * kind, its settings: frames (GIF), seconds (Video), playback speed and whether a print is made
 * too. The draft's problem (the server's words) shows under the settings as they are typed.
 */
export function CaptureKindFields({
  draft,
  onDraft,
}: {
  draft: TemplateDraft;
  onDraft: (draft: TemplateDraft) => void;
}) {
  const id = useId();
  const kind = draft.capture_kind;
  const problem = motionProblem(draft);
  const problemId = `${id}-problem`;
  const { gifFrames, videoSeconds } = MOTION_RULES;
  const speeds = MOTION_SPEEDS.includes(draft.motion_speed)
    ? MOTION_SPEEDS
    : [...MOTION_SPEEDS, draft.motion_speed].filter(Number.isFinite).sort((a, b) => a - b);

  return (
    <fieldset className="template-capture" data-testid="capture-kind-fields">
      <legend className="template-capture-legend">Capture</legend>
      <div className="template-capture-kinds" role="radiogroup" aria-label="Capture kind">
        {CAPTURE_KINDS.map((value) => (
          <label
            key={value}
            className={
              value === kind
                ? 'template-capture-kind template-capture-kind-on'
                : 'template-capture-kind'
            }
          >
            <input
              type="radio"
              name={`${id}-kind`}
              value={value}
              checked={value === kind}
              onChange={() => onDraft({ ...draft, capture_kind: value })}
            />
            <span className="template-capture-kind-name">{CAPTURE_KIND_LABELS[value]}</span>
            <span className="field-hint">{KIND_HINTS[value]}</span>
          </label>
        ))}
      </div>

      {kind !== 'photo' && (
        <div className="template-capture-settings">
          {kind === 'gif' && (
            <div className="field">
              <label htmlFor={`${id}-frames`}>Frames</label>
              <input
                id={`${id}-frames`}
                className="input"
                type="number"
                inputMode="numeric"
                min={gifFrames.min}
                max={gifFrames.max}
                step={1}
                value={Number.isFinite(draft.motion_frames) ? draft.motion_frames : ''}
                aria-invalid={problem === TEMPLATE_MESSAGES.motionFrames || undefined}
                aria-describedby={`${id}-frames-hint${problem ? ` ${problemId}` : ''}`}
                onChange={(event) =>
                  onDraft({ ...draft, motion_frames: parseSlotNumber(event.target.value) })
                }
              />
              <span className="field-hint" id={`${id}-frames-hint`}>
                {gifFrames.min} to {gifFrames.max} stills
              </span>
            </div>
          )}
          {kind === 'video' && (
            <div className="field">
              <label htmlFor={`${id}-seconds`}>Seconds</label>
              <input
                id={`${id}-seconds`}
                className="input"
                type="number"
                inputMode="decimal"
                min={videoSeconds.min}
                max={videoSeconds.max}
                step={0.5}
                value={Number.isFinite(draft.motion_seconds) ? draft.motion_seconds : ''}
                aria-invalid={problem === TEMPLATE_MESSAGES.motionSeconds || undefined}
                aria-describedby={`${id}-seconds-hint${problem ? ` ${problemId}` : ''}`}
                onChange={(event) =>
                  onDraft({ ...draft, motion_seconds: parseSlotNumber(event.target.value) })
                }
              />
              <span className="field-hint" id={`${id}-seconds-hint`}>
                {videoSeconds.min} to {videoSeconds.max} seconds
              </span>
            </div>
          )}
          <div className="field">
            <label htmlFor={`${id}-speed`}>Speed</label>
            <select
              id={`${id}-speed`}
              className="select"
              value={String(draft.motion_speed)}
              onChange={(event) => onDraft({ ...draft, motion_speed: Number(event.target.value) })}
            >
              {speeds.map((speed) => (
                <option key={speed} value={String(speed)}>
                  {speedLabel(speed)}
                  {speed === 1 ? ' (normal)' : speed < 1 ? ' (slow motion)' : ''}
                </option>
              ))}
            </select>
          </div>
          <label className="template-check template-capture-print">
            <input
              type="checkbox"
              checked={draft.motion_prints}
              onChange={(event) => onDraft({ ...draft, motion_prints: event.target.checked })}
            />
            <span>
              Also print{' '}
              <span className="field-hint">(the template, with stills from the clip)</span>
            </span>
          </label>
        </div>
      )}
      {problem && (
        <p className="field-error" id={problemId}>
          {problem}
        </p>
      )}
    </fieldset>
  );
}
