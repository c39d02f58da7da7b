import type { Passkey, Pool } from '@flashbooth/contracts';
import { PASSKEY_NAME_MAX_LENGTH } from '@flashbooth/contracts/rules';
import { type FormEvent, useId, useRef, useState } from 'react';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { LoadErrorPanel } from '@/components/ui/list-states';
import { Spinner } from '@/components/ui/spinner';
import { appConfig } from '@/config/app-config';
import type { StatusKind } from '@/components/ui/status-message';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { canUsePasskeys, hasWebAuthn, passkeyFailure } from '@/lib/webauthn';
import { useAddPasskey } from '../api/add-passkey';
import { usePasskeys } from '../api/list-passkeys';
import { useRemovePasskey } from '../api/remove-passkey';
import {
  addedText,
  checkPasskeyName,
  lastUsedText,
  PASSKEY_SCREEN_MESSAGES as M,
  suggestPasskeyName,
} from '../passkeys-model';
import './passkeys-section.css';

/** Why adding failed: the server's message, or the browser's failure in words; null = say nothing. */
function addFailureMessage(error: unknown): string | null {
  if (error instanceof ApiError) return error.message;
  return passkeyFailure(error, 'add').message;
}

function AddPasskeyDialog({
  pool,
  open,
  onClose,
  onAdded,
}: {
  pool: Pool;
  open: boolean;
  onClose: () => void;
  onAdded: (passkey: Passkey) => void;
}) {
  const id = useId();
  const [name, setName] = useState(() => suggestPasskeyName(navigator.userAgent));
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const add = useAddPasskey(pool);
  const inputRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    const checked = checkPasskeyName(name);
    if ('error' in checked) {
      setNameError(checked.error);
      inputRef.current?.focus();
      return;
    }
    setNameError(null);
    setError(null);
    try {
      onAdded(await add.mutateAsync(checked.name));
    } catch (failure) {
      setError(addFailureMessage(failure));
    }
  };

  const close = () => {
    if (!add.isPending) onClose();
  };

  return (
    <Dialog open={open} title="Add a passkey" onClose={close} closeOnBackdrop={false}>
      <form className="passkey-dialog-form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="passkey-dialog-hint" id={`${id}-hint`}>
          Your device will ask for your fingerprint, face or screen lock. Name the passkey so you
          can tell your devices apart.
        </p>
        <div className="field">
          <label htmlFor={`${id}-name`}>Passkey name</label>
          <input
            ref={inputRef}
            id={`${id}-name`}
            className="input"
            type="text"
            autoComplete="off"
            maxLength={PASSKEY_NAME_MAX_LENGTH + 10}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setNameError(null);
            }}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-error` : `${id}-hint`}
          />
          {nameError && (
            <p id={`${id}-error`} className="field-error">
              {nameError}
            </p>
          )}
        </div>
        {error && (
          <p className="status status-error passkey-dialog-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={close}
            disabled={add.isPending}
          >
            Cancel
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={add.isPending}
            aria-busy={add.isPending}
          >
            {add.isPending && <Spinner small label="Waiting for your device…" />}
            <span>Create passkey</span>
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function PasskeyItem({ passkey, onRemove }: { passkey: Passkey; onRemove: () => void }) {
  return (
    <li className="passkey-item">
      <div className="passkey-item-text">
        <p className="passkey-item-name">{passkey.name}</p>
        <p className="passkey-item-meta">
          <span>{addedText(passkey.created_at)}</span>
          <span>{lastUsedText(passkey.last_used_at)}</span>
        </p>
      </div>
      <button
        type="button"
        className="btn btn-secondary passkey-item-remove"
        onClick={onRemove}
        aria-label={`Remove passkey ${passkey.name}`}
      >
        Remove
      </button>
    </li>
  );
}

/**
 * The profile's Passkeys section (both pools): the person's passkeys (name, added, last used),
 * "Add a passkey" (named, then made by the browser) and Remove with a confirmation. Messages go
 * to the profile's status line.
 */
export function PasskeysSection({
  pool,
  onStatus,
}: {
  pool: Pool;
  onStatus: (kind: StatusKind, text: string) => void;
}) {
  const headingId = useId();
  /** Null where passkeys can be added; otherwise why not (the browser, or this address). */
  const [unavailable] = useState(() => {
    if (!hasWebAuthn()) return M.unsupported;
    if (canUsePasskeys()) return null;
    return M.otherAddress(appConfig.passkeys?.origins[0] ?? window.location.origin);
  });
  const passkeys = usePasskeys(pool);
  const remove = useRemovePasskey(pool);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing.id);
      onStatus('success', M.removed);
    } catch (error) {
      onStatus('error', errorText(error, M.loadFailed));
    } finally {
      setRemoving(null);
    }
  };

  let body;
  if (passkeys.isPending) {
    body = (
      <div aria-busy="true" className="passkey-loading">
        <span className="visually-hidden" role="status">
          Loading passkeys…
        </span>
        <div className="skeleton skeleton-line" style={{ width: '60%' }} aria-hidden="true" />
        <div className="skeleton skeleton-line" style={{ width: '40%' }} aria-hidden="true" />
      </div>
    );
  } else if (passkeys.isError) {
    body = (
      <LoadErrorPanel className="passkey-load-error" message={M.loadFailed} query={passkeys} />
    );
  } else if (passkeys.data.items.length === 0) {
    body = <p className="passkey-empty">{unavailable ? M.emptyUnavailable : M.empty}</p>;
  } else {
    body = (
      <ul className="passkey-list" aria-labelledby={headingId}>
        {passkeys.data.items.map((passkey) => (
          <PasskeyItem key={passkey.id} passkey={passkey} onRemove={() => setRemoving(passkey)} />
        ))}
      </ul>
    );
  }

  return (
    <section className="card profile-card passkeys-card" aria-labelledby={headingId}>
      <div className="passkeys-header">
        <h2 id={headingId} className="passkeys-title">
          Passkeys
        </h2>
        {!unavailable && (
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
            Add a passkey
          </button>
        )}
      </div>
      <p className="passkeys-intro">
        Sign in with your fingerprint, face or screen lock instead of a code.
      </p>
      {unavailable && <p className="field-hint">{unavailable}</p>}
      {body}

      {adding && (
        <AddPasskeyDialog
          pool={pool}
          open={adding}
          onClose={() => setAdding(false)}
          onAdded={() => {
            setAdding(false);
            onStatus('success', M.added);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove passkey"
        message={removing ? M.removeConfirm(removing.name) : ''}
        confirmLabel="Remove"
        danger
        busy={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
