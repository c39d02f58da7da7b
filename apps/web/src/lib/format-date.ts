// Shared with the server's own HTML of the wall (packages/contracts/src/display-rules.ts).
export { formatUtcTimestamp, utcTimestampParts } from '@flashbooth/contracts/rules';
