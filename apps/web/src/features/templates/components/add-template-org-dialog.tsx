import { TextFieldDialog } from '@/components/console/text-field-dialog';
import { useAddTemplateOrg } from '../api/add-template-org';
import { associateOrgId, TEMPLATE_TEXT } from '../templates-model';

interface AddTemplateOrgDialogProps {
  templateId: number;
  onClose: () => void;
  onAdded: (orgId: string) => void;
}

/** "Associate Template with an Organization": the organization's ID (Associate needs one). */
export function AddTemplateOrgDialog({ templateId, onClose, onAdded }: AddTemplateOrgDialogProps) {
  return (
    <TextFieldDialog
      title="Associate Template with an Organization"
      label="Organization ID"
      inputMode="numeric"
      maxLength={12}
      submitLabel="Associate"
      busyLabel="Associating..."
      required
      check={(text) => {
        const outcome = associateOrgId(text);
        return outcome.kind === 'ok' ? { kind: 'ok', body: outcome.orgId } : outcome;
      }}
      send={useAddTemplateOrg(templateId)}
      failed={TEMPLATE_TEXT.associateFailed}
      onSent={onAdded}
      onClose={onClose}
    />
  );
}
