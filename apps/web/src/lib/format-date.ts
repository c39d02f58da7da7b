const pad = (value: number) => String(value).padStart(2, '0');

/**
 * Spec: timestamps are UTC (sent without a zone suffix) and shown as dd/mm/yyyy hh:mm (24 h).
 * A value with a zone is converted to UTC; null when the value cannot be read.
 */
export function utcTimestampParts(value: string): { date: string; time: string } | null {
  const plain = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(value);
  if (plain) {
    const [, year, month, day, hour, minute] = plain;
    return { date: `${day}/${month}/${year}`, time: `${hour}:${minute}` };
  }
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) return null;
  return {
    date: `${pad(parsed.getUTCDate())}/${pad(parsed.getUTCMonth() + 1)}/${parsed.getUTCFullYear()}`,
    time: `${pad(parsed.getUTCHours())}:${pad(parsed.getUTCMinutes())}`,
  };
}

/** "dd/mm/yyyy hh:mm" in UTC, or the value as it came when it cannot be read. */
export function formatUtcTimestamp(value: string): string {
  const parts = utcTimestampParts(value);
  return parts ? `${parts.date} ${parts.time}` : value;
}
