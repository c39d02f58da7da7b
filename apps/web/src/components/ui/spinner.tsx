export function Spinner({
  label = 'Loading…',
  small = false,
}: {
  label?: string;
  small?: boolean;
}) {
  return (
    <span role="status" aria-live="polite" style={{ display: 'inline-flex' }}>
      <span className={small ? 'spinner spinner-sm' : 'spinner'} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

export function PageSpinner({ label }: { label?: string }) {
  return (
    <div className="center-fill">
      <Spinner label={label} />
    </div>
  );
}
