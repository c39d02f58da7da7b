import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Field } from '@/components/console/form-dialog';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useCreateTemplateFromDesign } from '../api/create-template-from-design';
import {
  CREATE_STEP_LABELS,
  CREATE_STEPS,
  createFailureMessage,
  defaultTemplateName,
  type CreateStep,
  type StudioResult,
} from '../template-studio-model';

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
  const create = useCreateTemplateFromDesign();
  // The step that runs (or failed); the panel stays busy until the template's page opens.
  const [current, setCurrent] = useState<CreateStep | null>(null);
  const failure = create.error;
  const running = create.isPending || create.isSuccess;
  const at = failure?.step ?? current;

  const submit = () =>
    create.mutate(
      { name: name.trim(), outputs: result, onStep: setCurrent },
      { onSuccess: (template) => void navigate(paths.enterprise.template.getHref(template.id)) },
    );

  const stepState = (step: CreateStep) => {
    if (at === null) return 'pending';
    const index = CREATE_STEPS.indexOf(step);
    const atIndex = CREATE_STEPS.indexOf(at);
    if (index < atIndex) return 'done';
    if (index > atIndex) return 'pending';
    return failure ? 'failed' : 'active';
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
          if (name.trim() && !running) submit();
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
      {at !== null && (
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
      {failure && (
        <div className="status status-error studio-create-error" role="alert">
          <p>{createFailureMessage(failure.step, failure.reason)}</p>
          {failure.templateId !== null && (
            <Link to={paths.enterprise.template.getHref(failure.templateId)}>
              Open the template
            </Link>
          )}
        </div>
      )}
    </section>
  );
}
