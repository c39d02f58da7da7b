/** DESIGN.md: timestamps are UTC ISO-8601 without zone suffix, e.g. 2025-05-14T10:20:30. */
export function toApiTimestamp(date: Date | string): string {
  const value = typeof date === 'string' ? new Date(date) : date;
  return value.toISOString().slice(0, 19);
}

/** yyyy-mm-dd for a date column (PGlite/pg return Date or string depending on the driver). */
export function toIsoDate(value: Date | string | null): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  return value.toISOString().slice(0, 10);
}

/** Rupees with two decimals from integer paise. */
export const paiseToRupees = (paise: number) => Math.round(paise) / 100;
