import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useUpdateRelease } from '../api/update-release';
import { failureText, releaseForm, releasePatch } from '../software-model';
import { ReleaseFields } from './software-fields';

interface EditReleaseDialogProps {
  release: SoftwareRelease;
  onClose: () => void;
  onSaved: () => void;
}

/** Edit Details: version and release notes; only what changed is sent. */
export function EditReleaseDialog({ release, onClose, onSaved }: EditReleaseDialogProps) {
  const id = useId();
  const [values, setValues] = useState(() => releaseForm(release));
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const update = useUpdateRelease(release.id);

  const submit = () => {
    const outcome = releasePatch(release, values);
    setError(null);
    setNotice(null);
    if (outcome.kind === 'unchanged') {
      setNotice(outcome.message);
      return;
    }
    if (outcome.kind === 'invalid') {
      setError(outcome.message);
      return;
    }
    update.mutate(outcome.body, {
      onSuccess: onSaved,
      onError: (failure) => setError(failureText(failure, SOFTWARE_MESSAGES.updateReleaseFailed)),
    });
  };

  return (
    <FormDialog
      open
      title="Edit Release Details"
      submitLabel="Save Changes"
      busyLabel="Saving..."
      busy={update.isPending}
      error={error}
      notice={notice}
      submitDisabled={!values.version.trim()}
      onSubmit={submit}
      onCancel={onClose}
    >
      <ReleaseFields id={id} values={values} onChange={setValues} />
    </FormDialog>
  );
}
