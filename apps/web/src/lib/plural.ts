/**
 * "1 payment", "2 payments", "1,500 uses": a count (grouped as the console shows numbers) with
 * its noun in the right number. Pass the plural when it is not the singular plus "s".
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : pluralForm}`;
}
