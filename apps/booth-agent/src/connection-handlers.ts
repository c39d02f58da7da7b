// What the agent does when its connection comes (back), when the retained settings arrive and
// when the server pings it (agent.ts hands these to the connection and the command intake).
import { PRINTS_LEFT_WARNING } from '@flashbooth/contracts';
import type { BoothStateStore } from './booth-state.js';
import type { BoothChannel } from './connection.js';
import type { DeliveryWorker } from './delivery/delivery-worker.js';
import type { BoothHealth } from './health.js';
import type { AgentLog } from './log.js';
import type { Reply } from './replies.js';
import type { ReportOutbox } from './report-outbox.js';
import { applySettings } from './settings.js';
import type { StatusBoard } from './status.js';
import { withTimeout } from './time.js';

export interface ConnectionHandlerParts {
  thingName: string;
  store: BoothStateStore;
  board: StatusBoard;
  health: Pick<BoothHealth, 'refresh'>;
  worker: Pick<DeliveryWorker, 'networkBack'>;
  outbox: Pick<ReportOutbox, 'flush'>;
  log: AgentLog;
}

/**
 * On every (re)connection, once subscribed: report the current status (with the health brought
 * up to date, 2 s at most), then send the error reports kept meanwhile.
 */
export async function whenOnline(parts: ConnectionHandlerParts, channel: BoothChannel) {
  const { board, store, log } = parts;
  board.online();
  // The broker is back, so the network probably is: deliveries stop waiting out their pause.
  parts.worker.networkBack();
  await withTimeout(parts.health.refresh(), 2000).catch(() => undefined);
  await channel.publishStatus(board.message());
  const printsLeft = store.state.prints_left;
  if (printsLeft < PRINTS_LEFT_WARNING) {
    log.warn({ thingName: parts.thingName, printsLeft }, 'the paper roll is nearly empty');
  }
  void parts.outbox.flush();
}

/** A settings message (settings.ts): when it changed the state, saved and reported. */
export async function whenSettings(parts: ConnectionHandlerParts, payload: Buffer) {
  const { store, board, thingName, log } = parts;
  if (!applySettings(store.state, payload, { thingName, log })) return;
  await store.persist();
  await board.publishQuietly();
}

/** `ping`: the current status, version, prints left and settings revision. */
export async function answerPing(parts: ConnectionHandlerParts, reply: Reply) {
  const { state } = parts.store;
  await reply({
    status: parts.board.current,
    software_version: state.software_version,
    prints_left: state.prints_left,
    // As in the status: whoever stores prints_left can tell a pre-restock count.
    settings_revision: state.settings_revision,
  });
}
