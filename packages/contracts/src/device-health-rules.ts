/** Less free disk than this on a booth is low (the delivery queue and releases need room). */
export const LOW_DISK_BYTES = 1024 ** 3;

/**
 * Whether a booth's disk is low: under 1 GiB free or under a tenth of the disk. The agent reports
 * its health when this changes; the console's Booth Health panel shows it as a warning.
 */
export function isDiskLow(disk: { free_bytes: number; total_bytes: number }): boolean {
  return (
    disk.free_bytes < LOW_DISK_BYTES ||
    (disk.total_bytes > 0 && disk.free_bytes < disk.total_bytes / 10)
  );
}
