import { SOFTWARE_MESSAGES } from '@flashbooth/contracts/rules';
import { Field } from '@/components/console/form-dialog';
import { useReleaseOptions } from '../api/get-releases';

interface ReleaseSelectProps {
  id: string;
  label: string;
  /** '' for none, else the release id. */
  value: string;
  onChange: (value: string) => void;
  /** The first option: "(None)" when creating, "(None - Unlink)" when linking. */
  noneLabel: string;
  /** The release already linked, kept as an option even if it is not among the 200 loaded. */
  current?: { id: number; version: string | null } | null;
  disabled?: boolean;
}

/**
 * The channel dialogs' release picker: up to 200 releases, newest first. When they cannot be
 * loaded it says "Could not load releases." and offers none (spec section 8).
 */
export function ReleaseSelect({
  id,
  label,
  value,
  onChange,
  noneLabel,
  current,
  disabled,
}: ReleaseSelectProps) {
  const releases = useReleaseOptions(true);
  const items = releases.isError ? [] : (releases.data?.items ?? []);
  const missingCurrent = current && !items.some((release) => release.id === current.id);
  return (
    <Field id={id} label={label}>
      <select
        className="select"
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled || releases.isPending}
        aria-describedby={releases.isError ? `${id}-error` : undefined}
        aria-busy={releases.isPending || undefined}
      >
        <option value="">{noneLabel}</option>
        {missingCurrent && (
          <option value={String(current.id)}>{current.version ?? `ID: ${current.id}`}</option>
        )}
        {items.map((release) => (
          <option key={release.id} value={String(release.id)}>
            {release.version}
            {release.is_uploaded ? '' : ' (no file yet)'}
          </option>
        ))}
      </select>
      {releases.isPending && <p className="field-hint">Loading releases…</p>}
      {releases.isError && (
        <p className="field-hint field-error" id={`${id}-error`} role="alert">
          {SOFTWARE_MESSAGES.loadReleaseOptionsFailed}
        </p>
      )}
    </Field>
  );
}
