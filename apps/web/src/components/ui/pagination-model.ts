// Shared with the server's own HTML of the wall (packages/contracts/src/display-rules.ts).
export { type PageSlot, pageCount, pageSlots } from '@flashbooth/contracts/rules';
