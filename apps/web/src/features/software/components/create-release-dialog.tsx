import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useCreateRelease } from '../api/create-release';
import {
  createReleaseBody,
  EMPTY_RELEASE_FORM,
  failureText,
  SOFTWARE_SCREEN_TEXT,
} from '../software-model';
import { ReleaseFields } from './software-fields';

interface CreateReleaseDialogProps {
  onClose: () => void;
  onCreated: (release: SoftwareRelease) => void;
}

/** +Create Release: Version* and Release Notes; the file is uploaded in the next step. */
export function CreateReleaseDialog({ onClose, onCreated }: CreateReleaseDialogProps) {
  const id = useId();
  const [values, setValues] = useState(EMPTY_RELEASE_FORM);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateRelease();

  const submit = () => {
    const outcome = createReleaseBody(values);
    if (outcome.kind !== 'ok') {
      setError(outcome.message);
      return;
    }
    setError(null);
    create.mutate(outcome.body, {
      onSuccess: onCreated,
      onError: (failure) => setError(failureText(failure, SOFTWARE_MESSAGES.createReleaseFailed)),
    });
  };

  return (
    <FormDialog
      open
      title="Create Software Release"
      submitLabel="Create Release"
      busyLabel="Creating..."
      busy={create.isPending}
      error={error}
      submitDisabled={!values.version.trim()}
      onSubmit={submit}
      onCancel={onClose}
    >
      <ReleaseFields id={id} values={values} onChange={setValues} />
      <p className="software-dialog-note">{SOFTWARE_SCREEN_TEXT.fileNextStep}</p>
    </FormDialog>
  );
}
