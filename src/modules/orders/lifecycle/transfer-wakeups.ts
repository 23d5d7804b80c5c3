/**
 * A TRANSFERRING order woken when the node notifies its transaction (issue 44 item 2, decision
 * 0054): the TRANSFERRING step, finding the transfer pending, asks the node's websocket to tell
 * when its signature reaches the commitment; the notification makes the order's step due now and
 * wakes the order lane, so the step's own status check (the source of truth) runs at once instead
 * of at its next 1 s retry. Nothing else: no status is trusted from the notification, and without a
 * websocket (down, refused, none configured) the retries poll as before.
 */
import type { SignatureWatch } from '../../../adapters/chain/port.ts';
import type { Db } from '../../../db/database.ts';
import type { Clock } from '../../../lib/clock.ts';
import { inTransaction, signalAfterCommit } from '../../../platform/commit-signals.ts';
import { ordersRepo as repo } from '../repo.ts';
import { ORDER_STEPS_CHANNEL } from './transitions.ts';

/** While another worker's step runs the order, the wake-up is tried again this often, this many times (its backoff would overwrite it). */
const HELD_RETRY_MS = 50;
const HELD_RETRIES = 40;

export interface TransferWakeupLog {
  warn(obj: object, msg: string): void;
}

/** What the TRANSFERRING step calls when its transfer is pending: watch this signature for this order. */
export type WatchTransfer = (orderId: string, txHash: string) => void;

export function createTransferWakeups(deps: { db: Db; clock: Clock; signatures: SignatureWatch; log?: TransferWakeupLog | undefined }): WatchTransfer {
  const { db, clock, signatures, log } = deps;

  async function wake(orderId: string, txHash: string, tries: number): Promise<void> {
    const row = await inTransaction(db, async (trx) => {
      const due = await repo.transferDueNow(trx, orderId, txHash, clock.now());
      if (due && !due.held) signalAfterCommit(trx, ORDER_STEPS_CHANNEL);
      return due;
    });
    if (row?.held && tries < HELD_RETRIES) setTimeout(() => void wakeSafely(orderId, txHash, tries + 1), HELD_RETRY_MS).unref();
  }

  const wakeSafely = (orderId: string, txHash: string, tries: number) =>
    // A failed wake-up costs only latency: the step's retry polls anyway.
    wake(orderId, txHash, tries).catch((err: unknown) => log?.warn({ err, orderId }, 'transfer wake-up failed: the step polls instead'));

  return (orderId, txHash) => signatures.watch(txHash, () => void wakeSafely(orderId, txHash, 0));
}
