import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { useCreateRelease } from '../api/create-release';
import { createReleaseBody, EMPTY_RELEASE_FORM, SOFTWARE_SCREEN_TEXT } from '../software-model';
import { ReleaseFields } from './software-fields';

interface CreateReleaseDialogProps {
  onClose: () => void;
  onCreated: (release: SoftwareRelease) => void;
}

/** +Create Release: Version* and Release Notes; the file is uploaded in the next step. */
export function CreateReleaseDialog({ onClose, onCreated }: CreateReleaseDialogProps) {
  const id = useId();
  const [values, setValues] = useState(EMPTY_RELEASE_FORM);
  const submit = useFormSubmit(
    useCreateRelease(),
    () => createReleaseBody(values),
    SOFTWARE_MESSAGES.createReleaseFailed,
    onCreated,
  );

  return (
    <FormDialog
      open
      title="Create Software Release"
      submitLabel="Create Release"
      busyLabel="Creating..."
      submitDisabled={!values.version.trim()}
      onCancel={onClose}
      {...submit}
    >
      <ReleaseFields id={id} values={values} onChange={setValues} />
      <p className="software-dialog-note">{SOFTWARE_SCREEN_TEXT.fileNextStep}</p>
    </FormDialog>
  );
}
