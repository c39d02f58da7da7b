import type { Organization } from '@flashbooth/contracts';
import { ORGANIZATION_MESSAGES } from '@flashbooth/contracts/rules';
import { useRef, type ChangeEvent } from 'react';
import type { StatusKind } from '@/components/ui/status-message';
import { errorText } from '@/lib/error-text';
import { useUploadLogo } from '../api/upload-logo';
import { logoFileError, ORGANIZATION_SCREEN_TEXT } from '../organizations-model';
import { OrganizationLogo } from './organization-logo';

const M = ORGANIZATION_MESSAGES;

interface LogoUploaderProps {
  organization: Organization;
  /** The person may change the logo (the organization's admins and privileged staff). */
  canUpload: boolean;
  disabled?: boolean;
  onStatus: (kind: StatusKind, text: string) => void;
}

/**
 * The detail page's logo: for those who may change it a button ("Click to upload logo", then
 * "Uploading..."), which checks the file is an image before the three-step upload.
 */
export function LogoUploader({ organization, canUpload, disabled, onStatus }: LogoUploaderProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useUploadLogo(organization.id);

  if (!canUpload) {
    return (
      <div className="org-detail-logo">
        <OrganizationLogo name={organization.name} url={organization.logo_s3_url} />
      </div>
    );
  }

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file again must fire a change next time.
    event.target.value = '';
    if (!file) return;
    const error = logoFileError(file);
    if (error) {
      onStatus('error', error);
      return;
    }
    upload.mutate(file, {
      onSuccess: () => onStatus('success', ORGANIZATION_SCREEN_TEXT.logoUploaded),
      onError: (failure) => onStatus('error', errorText(failure, M.logoUploadFailed)),
    });
  };

  return (
    <div className="org-detail-logo">
      <button
        type="button"
        className="org-logo-button"
        onClick={() => inputRef.current?.click()}
        disabled={disabled || upload.isPending}
        aria-busy={upload.isPending || undefined}
      >
        <OrganizationLogo name={organization.name} url={organization.logo_s3_url} />
        <span className="org-logo-hint">
          {upload.isPending ? M.uploading : M.clickToUploadLogo}
        </span>
      </button>
      <input
        ref={inputRef}
        type="file"
        accept="image/png,image/jpeg"
        className="visually-hidden"
        tabIndex={-1}
        aria-label="Logo file"
        data-testid="logo-input"
        onChange={onFile}
      />
    </div>
  );
}
