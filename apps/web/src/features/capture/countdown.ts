/** Whole seconds left until `endsAt` (ms since the epoch), never below 0. */
export function secondsLeftUntil(endsAt: number, now: number): number {
  return Math.max(0, Math.ceil((endsAt - now) / 1000));
}

/** "1 second left", "40 seconds left" (the number is shown beside it). */
export function countdownLabel(seconds: number): string {
  return seconds === 1 ? 'second left' : 'seconds left';
}
