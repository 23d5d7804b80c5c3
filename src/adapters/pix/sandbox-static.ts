/**
 * The sandbox PSP's static codes (issue 43, standing PIX charges): a static BR Code on the
 * platform's key names a txid of at most 25 alphanumerics and is paid any number of times; each
 * PIX is its own record (`sandbox_pix_received`), reported with the code's txid as API Pix's
 * `GET /pix` and webhook `pix[]` do. Nothing is registered ahead: a static code is written by the
 * receiving side itself, so the PSP only sees the PIX that arrive with its txid.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { toFixedText } from '../../lib/money.ts';
import { STATIC_TXID_PATTERN, newEndToEndId } from './identifiers.ts';
import type { PixNotification, PixPayer, ReceivedPix } from './port.ts';
import { payerOf, pixSandboxRepo as repo } from './sandbox-repo.ts';
import type { SandboxPixReceivedTable } from './sandbox-tables.ts';

type ChargePaid = Extract<PixNotification, { kind: 'charge_paid' }>;

/** What the sandbox PSP refuses of a static payment (409 through the sandbox routes). */
export class PixSandboxStaticRefusal extends AppError {
  constructor(message: string) {
    super('CONFLICT', `sandbox PSP: ${message}`);
  }
}

export function toStaticReceivedPix(row: Selectable<SandboxPixReceivedTable>): ReceivedPix {
  const payer = payerOf(row, 'payer');
  return { endToEndId: row.end_to_end_id, txid: row.txid, amountBrl: toFixedText(row.amount_brl, 2), paidAt: row.paid_at, ...(payer ? { payer } : {}) };
}

export function createSandboxStaticCodes(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /**
     * A payer pays a static code carrying `txid` (the payer's app types the amount of an open
     * code). Every call is a new PIX, with its own endToEndId. `payer: undefined`: the PSP does not
     * report who paid.
     */
    async simulateStaticPayment(txid: string, input: { amountBrl: string; payer: PixPayer | undefined }): Promise<ChargePaid> {
      if (!STATIC_TXID_PATTERN.test(txid)) throw new PixSandboxStaticRefusal('a static code txid is 1 to 25 letters or digits');
      const paidAt = clock.now();
      const { payer } = input;
      const row = await repo.insertReceived(db, {
        end_to_end_id: newEndToEndId(paidAt),
        txid,
        amount_brl: input.amountBrl,
        paid_at: paidAt,
        payer_document_type: payer?.documentType ?? null,
        payer_document: payer?.document ?? null,
        payer_name: payer?.name ?? null,
      });
      const received = toStaticReceivedPix(row);
      return { kind: 'charge_paid', ...received, txid };
    },

    async received(endToEndId: string): Promise<ReceivedPix | null> {
      const row = await repo.findReceived(db, endToEndId);
      return row ? toStaticReceivedPix(row) : null;
    },

    /** For a refund of it, in the refund's transaction: the PIX locked, as a paid charge reads. */
    async lockPaid(trx: Db, endToEndId: string) {
      const row = await repo.findReceived(trx, endToEndId, { forUpdate: true });
      return row && { paid_amount_brl: row.amount_brl, paid_at: row.paid_at };
    },

    async between(from: Date, to: Date): Promise<ReceivedPix[]> {
      return (await repo.receivedBetween(db, from, to)).map(toStaticReceivedPix);
    },
  };
}
