/**
 * The fields of an edit form that differ from the record, for a PATCH that sends only what
 * changed (staff spec: organizations, devices, channels, releases). Text is compared trimmed and
 * sent trimmed; a field the record holds as null and the form as '' is unchanged. An empty
 * result means "No changes to save.".
 */
export function changedFields<K extends string>(
  original: Readonly<Record<K, string | null | undefined>>,
  draft: Readonly<Record<K, string>>,
  keys: readonly K[],
): Partial<Record<K, string>> {
  const changes: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const next = draft[key].trim();
    const before = (original[key] ?? '').trim();
    if (next !== before) changes[key] = next;
  }
  return changes;
}

/** True when the change set holds nothing to send. */
export function isEmptyChange(changes: object): boolean {
  return Object.keys(changes).length === 0;
}
