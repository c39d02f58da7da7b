import type { SoftwareChannel } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useId, useState } from 'react';
import { FormDialog } from '@/components/console/form-dialog';
import { useFormSubmit } from '@/components/console/use-form-submit';
import { useUpdateChannel } from '../api/update-channel';
import { releaseIdValue, SOFTWARE_SCREEN_TEXT } from '../software-model';
import { ReleaseSelect } from './release-select';

interface LinkReleaseDialogProps {
  channel: SoftwareChannel;
  onClose: () => void;
  onSaved: () => void;
}

/** Link Release / Change Release: a release, or "(None - Unlink)", which sends null. */
export function LinkReleaseDialog({ channel, onClose, onSaved }: LinkReleaseDialogProps) {
  const id = useId();
  const [value, setValue] = useState(channel.release_id === null ? '' : String(channel.release_id));
  const submit = useFormSubmit(
    useUpdateChannel(channel.id, 'link'),
    () => ({ kind: 'ok', body: { release_id: releaseIdValue(value) } }),
    SOFTWARE_MESSAGES.linkReleaseFailed,
    onSaved,
  );
  const title = channel.release_id === null ? 'Link Release' : 'Change Release';

  return (
    <FormDialog
      open
      title={title}
      submitLabel="Save"
      busyLabel="Saving..."
      onCancel={onClose}
      {...submit}
    >
      <p className="software-dialog-note">
        Booths on “{channel.name}” install the linked release when they are updated.
      </p>
      <ReleaseSelect
        id={`${id}-release`}
        label="Release"
        value={value}
        noneLabel={SOFTWARE_SCREEN_TEXT.unlink}
        current={
          channel.release_id === null
            ? null
            : { id: channel.release_id, version: channel.release_version }
        }
        onChange={setValue}
      />
    </FormDialog>
  );
}
