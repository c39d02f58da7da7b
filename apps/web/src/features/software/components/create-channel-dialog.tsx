import type { SoftwareChannel } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { useCreateChannel } from '../api/create-channel';
import { createChannelBody, EMPTY_CHANNEL_FORM, SOFTWARE_SCREEN_TEXT } from '../software-model';
import { ReleaseSelect } from './release-select';
import { ChannelFields } from './software-fields';

interface CreateChannelDialogProps {
  onClose: () => void;
  onCreated: (channel: SoftwareChannel) => void;
}

/** +Create Channel: Name*, Description and an optional release link (none by default). */
export function CreateChannelDialog({ onClose, onCreated }: CreateChannelDialogProps) {
  const id = useId();
  const [values, setValues] = useState(EMPTY_CHANNEL_FORM);
  const submit = useFormSubmit(
    useCreateChannel(),
    () => createChannelBody(values),
    SOFTWARE_MESSAGES.createChannelFailed,
    onCreated,
  );

  return (
    <FormDialog
      open
      title="Create Software Channel"
      submitLabel="Create Channel"
      busyLabel="Creating..."
      submitDisabled={!values.name.trim()}
      onCancel={onClose}
      {...submit}
    >
      <ChannelFields id={id} values={values} onChange={setValues} />
      <ReleaseSelect
        id={`${id}-release`}
        label="Link Release (optional)"
        value={values.releaseId}
        noneLabel={SOFTWARE_SCREEN_TEXT.none}
        onChange={(releaseId) => setValues({ ...values, releaseId })}
      />
    </FormDialog>
  );
}
