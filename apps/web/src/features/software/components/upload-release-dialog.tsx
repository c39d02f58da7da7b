import type { SoftwareRelease } from '@flashbooth/contracts';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/error-text';
import { useUploadReleaseFile } from '../api/upload-release-file';
import {
  formatSizeMb,
  releaseFileError,
  uploadPhaseText,
  type UploadPhase,
} from '../software-model';

interface UploadReleaseDialogProps {
  release: SoftwareRelease;
  onClose: () => void;
  onUploaded: () => void;
}

/** The upload's progress bar: a percentage, announced as a progressbar. */
export function UploadProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div className="upload-progress">
      <div
        className="upload-progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
      >
        <div className="upload-progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="upload-progress-value" aria-hidden="true">
        {percent}%
      </span>
    </div>
  );
}

/**
 * Upload File / Re-upload File (staff spec sections 2 and 4): a file picker, the chosen file's
 * name and size in MB, a progress bar fed by the upload's own progress events, and
 * "Upload & Confirm" (disabled until a file is chosen; pressed anyway, it asks for one).
 * Cancel during the upload stops it.
 */
export function UploadReleaseDialog({ release, onClose, onUploaded }: UploadReleaseDialogProps) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<UploadPhase>('idle');
  const [percent, setPercent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const upload = useUploadReleaseFile(release.id);
  const busy = upload.isPending;

  // Leaving the dialog (or the page) stops an upload still running.
  useEffect(() => () => controller.current?.abort(), []);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    setFile(chosen);
    setPhase('idle');
    setPercent(0);
    setError(chosen ? releaseFileError(chosen) : null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = releaseFileError(file);
    if (problem || !file) {
      setError(problem);
      return;
    }
    setError(null);
    setPercent(0);
    setPhase('preparing');
    const abort = new AbortController();
    controller.current = abort;
    upload.mutate(
      {
        file,
        steps: {
          signal: abort.signal,
          onUploadStart: () => setPhase('uploading'),
          onProgress: (progress) => setPercent(progress.percent),
          onConfirming: () => setPhase('confirming'),
        },
      },
      {
        onSuccess: () => {
          setPhase('done');
          onUploaded();
        },
        onError: (failure) => {
          setPhase('failed');
          if (failure instanceof DOMException && failure.name === 'AbortError') return;
          setError(errorText(failure, SOFTWARE_MESSAGES.uploadFailed));
        },
        onSettled: () => {
          controller.current = null;
        },
      },
    );
  };

  const cancel = () => {
    if (busy) {
      controller.current?.abort();
      return;
    }
    onClose();
  };

  const showProgress = phase !== 'idle' && phase !== 'failed';
  const fileProblem = releaseFileError(file);

  return (
    <Dialog
      open
      title={release.is_uploaded ? 'Re-upload Release File' : 'Upload Release File'}
      onClose={cancel}
      closeOnBackdrop={false}
    >
      <form className="dialog-form upload-form" onSubmit={submit} noValidate>
        <p className="software-dialog-note">
          Release <strong>{release.version}</strong>: a binary or an archive (.bin, .zip, .tar.gz),
          at most 512 MB.
          {release.is_uploaded && ' The current file is replaced once the new one is confirmed.'}
        </p>
        <div className="field">
          <label htmlFor={`${id}-file`}>Release file</label>
          <input
            id={`${id}-file`}
            className="upload-file-input"
            type="file"
            onChange={choose}
            disabled={busy}
            aria-describedby={`${id}-chosen`}
            data-testid="release-file-input"
          />
          <p className="field-hint upload-chosen" id={`${id}-chosen`} aria-live="polite">
            {file ? (
              <>
                <span className="upload-file-name">{file.name}</span>
                <span className="upload-file-size">{formatSizeMb(file.size)}</span>
              </>
            ) : (
              'No file chosen yet.'
            )}
          </p>
        </div>

        {showProgress && (
          <div className="upload-status">
            <UploadProgressBar percent={percent} label={`Uploading ${file?.name ?? 'file'}`} />
            <p className="field-hint" role="status">
              {uploadPhaseText(phase, percent)}
            </p>
          </div>
        )}

        {error && (
          <p className="status status-error dialog-error" role="alert">
            {error}
          </p>
        )}

        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={cancel}>
            {busy ? 'Cancel Upload' : 'Cancel'}
          </button>
          {/* Without a usable file it is disabled but still answers a press, with what to do
              ("Please select a file to upload."): the message comes only after that try. */}
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy}
            aria-disabled={fileProblem !== null || undefined}
            aria-busy={busy || undefined}
          >
            {busy ? 'Uploading...' : 'Upload & Confirm'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
