import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { useUpdateRelease } from '../api/update-release';
import { releaseForm, releasePatch } from '../software-model';
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
  const submit = useFormSubmit(
    useUpdateRelease(release.id),
    () => releasePatch(release, values),
    SOFTWARE_MESSAGES.updateReleaseFailed,
    onSaved,
  );

  return (
    <FormDialog
      open
      title="Edit Release Details"
      submitLabel="Save Changes"
      busyLabel="Saving..."
      submitDisabled={!values.version.trim()}
      onCancel={onClose}
      {...submit}
    >
      <ReleaseFields id={id} values={values} onChange={setValues} />
    </FormDialog>
  );
}
