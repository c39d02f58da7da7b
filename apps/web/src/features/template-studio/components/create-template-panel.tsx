import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field } from '@/components/console/form-dialog';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import {
  CreateFromDesignError,
  createTemplateFromDesign,
} from '../api/create-template-from-design';
import {
  CREATE_STEP_LABELS,
  CREATE_STEPS,
  createFailureMessage,
  defaultTemplateName,
  type CreateStep,
  type StudioResult,
} from '../template-studio-model';

type Progress =
  | { state: 'ready' }
  | { state: 'running'; step: CreateStep }
  | { state: 'failed'; step: CreateStep; message: string; templateId: number | null };

/**
 * "Create template from this design" (beyond the spec; privileged staff): a template with the
 * layout's orientation and slots, the PNG as foreground and the JPG as sample, then its page.
 */
export function CreateTemplatePanel({
  result,
  fileName,
}: {
  result: StudioResult;
  fileName: string;
}) {
  const navigate = useNavigate();
  const [name, setName] = useState(() => defaultTemplateName(result.layout, fileName, new Date()));
  const [progress, setProgress] = useState<Progress>({ state: 'ready' });
  const running = progress.state === 'running';

  const create = async () => {
    try {
      const template = await createTemplateFromDesign(name.trim(), result, (step) =>
        setProgress({ state: 'running', step }),
      );
      await navigate(paths.enterprise.template.getHref(template.id));
    } catch (error) {
      const failure =
        error instanceof CreateFromDesignError
          ? error
          : new CreateFromDesignError('template', null, String(error));
      setProgress({
        state: 'failed',
        step: failure.step,
        message: createFailureMessage(failure.step, failure.reason),
        templateId: failure.templateId,
      });
    }
  };

  const stepState = (step: CreateStep) => {
    if (progress.state === 'ready') return 'pending';
    const at = CREATE_STEPS.indexOf(progress.step);
    const index = CREATE_STEPS.indexOf(step);
    if (index < at) return 'done';
    if (index > at) return 'pending';
    return progress.state === 'failed' ? 'failed' : 'active';
  };

  return (
    <section className="card studio-create" aria-labelledby="studio-create-title">
      <h2 id="studio-create-title" className="studio-step-title">
        Create template from this design
      </h2>
      <p className="studio-note">
        A new {result.layout.startsWith('portrait') ? 'portrait' : 'landscape'} template with this
        layout's photo slots, the PNG overlay as its foreground and the JPG as its sample.
      </p>
      <form
        className="studio-create-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() && !running) void create();
        }}
      >
        <Field id="studio-template-name" label="Template name">
          <input
            id="studio-template-name"
            className="input"
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
            disabled={running}
          />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={!name.trim() || running}>
          {running ? 'Creating…' : 'Create template from this design'}
        </button>
      </form>
      {progress.state !== 'ready' && (
        <ol className="studio-create-steps" aria-label="Progress">
          {CREATE_STEPS.map((step) => {
            const state = stepState(step);
            return (
              <li key={step} className={`studio-create-step studio-create-step-${state}`}>
                {state === 'active' ? <Spinner small label="Working…" /> : null}
                <span>{CREATE_STEP_LABELS[step]}</span>
                <span className="visually-hidden">
                  {state === 'done' ? ' (done)' : state === 'failed' ? ' (failed)' : ''}
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {progress.state === 'failed' && (
        <div className="status status-error studio-create-error" role="alert">
          <p>{progress.message}</p>
          {progress.templateId !== null && (
            <Link to={paths.enterprise.template.getHref(progress.templateId)}>
              Open the template
            </Link>
          )}
        </div>
      )}
    </section>
  );
}
