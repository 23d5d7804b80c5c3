/**
 * SQL of the sandbox PSP. Every function takes the transaction (or root db) it runs in; state
 * changes are guarded updates (`where status = <expected>`), so a row changes state, and is
 * reported, at most once however many callers race.
 */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PixPayer } from './port.ts';
import type { SandboxPixArmedFailuresTable, SandboxPixChargesTable, SandboxPixPayoutsTable, SandboxPixReceivedTable, SandboxPixRefundsTable } from './sandbox-tables.ts';
import { SANDBOX_PIX_CHARGE_COLUMNS, SANDBOX_PIX_PAYOUT_COLUMNS, SANDBOX_PIX_RECEIVED_COLUMNS, SANDBOX_PIX_REFUND_COLUMNS } from './sandbox-tables.ts';

export const pixSandboxRepo = {
  /** Inserts unless the txid (or, improbably, the location) is taken; then returns undefined. */
  insertCharge(db: Db, charge: Insertable<SandboxPixChargesTable>) {
    return db
      .insertInto('sandbox_pix_charges')
      .values(charge)
      .onConflict((oc) => oc.doNothing())
      .returning(SANDBOX_PIX_CHARGE_COLUMNS)
      .executeTakeFirst();
  },

  findCharge(db: Db, txid: string, options: { forUpdate?: boolean } = {}) {
    let query = db.selectFrom('sandbox_pix_charges').select(SANDBOX_PIX_CHARGE_COLUMNS).where('txid', '=', txid);
    if (options.forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  findChargeByLocation(db: Db, location: string) {
    return db.selectFrom('sandbox_pix_charges').select(SANDBOX_PIX_CHARGE_COLUMNS).where('location', '=', location).executeTakeFirst();
  },

  findChargeByEndToEndId(db: Db, endToEndId: string, options: { forUpdate?: boolean } = {}) {
    let query = db.selectFrom('sandbox_pix_charges').select(SANDBOX_PIX_CHARGE_COLUMNS).where('end_to_end_id', '=', endToEndId);
    if (options.forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  /** Charges paid in [from, to], oldest first (GET /pix?inicio=&fim=). */
  chargesPaidBetween(db: Db, from: Date, to: Date) {
    return db
      .selectFrom('sandbox_pix_charges')
      .select(SANDBOX_PIX_CHARGE_COLUMNS)
      .where('paid_at', '>=', from)
      .where('paid_at', '<=', to)
      .orderBy('paid_at')
      .orderBy('txid')
      .execute();
  },

  /** Guarded: only an ATIVA charge becomes CONCLUIDA. */
  markChargePaid(db: Db, txid: string, payment: { endToEndId: string; amountBrl: string; paidAt: Date; payer: PixPayer | undefined }) {
    const { payer } = payment;
    return db
      .updateTable('sandbox_pix_charges')
      .set({
        status: 'CONCLUIDA',
        end_to_end_id: payment.endToEndId,
        paid_amount_brl: payment.amountBrl,
        paid_at: payment.paidAt,
        payer_document_type: payer?.documentType ?? null,
        payer_document: payer?.document ?? null,
        payer_name: payer?.name ?? null,
      })
      .where('txid', '=', txid)
      .where('status', '=', 'ATIVA')
      .returning(SANDBOX_PIX_CHARGE_COLUMNS)
      .executeTakeFirst();
  },

  /** A PIX received on a static code (many per txid). */
  insertReceived(db: Db, received: Insertable<SandboxPixReceivedTable>) {
    return db.insertInto('sandbox_pix_received').values(received).returning(SANDBOX_PIX_RECEIVED_COLUMNS).executeTakeFirstOrThrow();
  },

  findReceived(db: Db, endToEndId: string, options: { forUpdate?: boolean } = {}) {
    let query = db.selectFrom('sandbox_pix_received').select(SANDBOX_PIX_RECEIVED_COLUMNS).where('end_to_end_id', '=', endToEndId);
    if (options.forUpdate) query = query.forUpdate();
    return query.executeTakeFirst();
  },

  /** PIX received on static codes in [from, to], oldest first. */
  receivedBetween(db: Db, from: Date, to: Date) {
    return db
      .selectFrom('sandbox_pix_received')
      .select(SANDBOX_PIX_RECEIVED_COLUMNS)
      .where('paid_at', '>=', from)
      .where('paid_at', '<=', to)
      .orderBy('paid_at')
      .orderBy('end_to_end_id')
      .execute();
  },

  findRefund(db: Db, refundId: string) {
    return db.selectFrom('sandbox_pix_refunds').select(SANDBOX_PIX_REFUND_COLUMNS).where('refund_id', '=', refundId).executeTakeFirst();
  },

  /** Sum of the refunds of a PIX that are settled or still may be (NAO_REALIZADO ones returned nothing). */
  async refundedTotal(db: Db, endToEndId: string): Promise<string> {
    const row = await db
      .selectFrom('sandbox_pix_refunds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_brl'), eb.val('0')).as('total'))
      .where('end_to_end_id', '=', endToEndId)
      .where('status', '<>', 'NAO_REALIZADO')
      .executeTakeFirstOrThrow();
    return String(row.total);
  },

  insertRefund(db: Db, refund: Insertable<SandboxPixRefundsTable>) {
    return db
      .insertInto('sandbox_pix_refunds')
      .values(refund)
      .onConflict((oc) => oc.column('refund_id').doNothing())
      .returning(SANDBOX_PIX_REFUND_COLUMNS)
      .executeTakeFirst();
  },

  /** Guarded: every EM_PROCESSAMENTO refund becomes DEVOLVIDO; returns exactly the rows it changed. */
  settleRefunds(db: Db, now: Date) {
    return db
      .updateTable('sandbox_pix_refunds')
      .set({ status: 'DEVOLVIDO', settled_at: now })
      .where('status', '=', 'EM_PROCESSAMENTO')
      .returning(SANDBOX_PIX_REFUND_COLUMNS)
      .execute();
  },

  /** Guarded: only an EM_PROCESSAMENTO refund becomes NAO_REALIZADO. */
  failRefund(db: Db, refundId: string, reason: string, now: Date) {
    return db
      .updateTable('sandbox_pix_refunds')
      .set({ status: 'NAO_REALIZADO', failure_reason: reason, settled_at: now })
      .where('refund_id', '=', refundId)
      .where('status', '=', 'EM_PROCESSAMENTO')
      .returning(SANDBOX_PIX_REFUND_COLUMNS)
      .executeTakeFirst();
  },

  /** Inserts unless the idempotency key is taken; then returns undefined. */
  insertPayout(db: Db, payout: Insertable<SandboxPixPayoutsTable>) {
    return db
      .insertInto('sandbox_pix_payouts')
      .values(payout)
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning(SANDBOX_PIX_PAYOUT_COLUMNS)
      .executeTakeFirst();
  },

  findPayoutByIdempotencyKey(db: Db, idempotencyKey: string) {
    return db.selectFrom('sandbox_pix_payouts').select(SANDBOX_PIX_PAYOUT_COLUMNS).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  },

  findPayout(db: Db, providerTransactionId: string) {
    return db
      .selectFrom('sandbox_pix_payouts')
      .select(SANDBOX_PIX_PAYOUT_COLUMNS)
      .where('provider_transaction_id', '=', providerTransactionId)
      .executeTakeFirst();
  },

  /** PROCESSING payouts, oldest first, locked; rows another settler holds are skipped. */
  lockProcessingPayouts(db: Db) {
    return db
      .selectFrom('sandbox_pix_payouts')
      .select(['provider_transaction_id', 'idempotency_key'])
      .where('status', '=', 'PROCESSING')
      .orderBy('created_at')
      .orderBy('provider_transaction_id')
      .forUpdate()
      .skipLocked()
      .execute();
  },

  /** Guarded: only a PROCESSING payout becomes CONFIRMED or FAILED. */
  settlePayout(
    db: Db,
    providerTransactionId: string,
    outcome: { status: 'CONFIRMED'; endToEndId: string } | { status: 'FAILED'; reason: string },
    now: Date,
  ) {
    return db
      .updateTable('sandbox_pix_payouts')
      .set(
        outcome.status === 'CONFIRMED'
          ? { status: 'CONFIRMED', end_to_end_id: outcome.endToEndId, settled_at: now }
          : { status: 'FAILED', failure_reason: outcome.reason, settled_at: now },
      )
      .where('provider_transaction_id', '=', providerTransactionId)
      .where('status', '=', 'PROCESSING')
      .returning(SANDBOX_PIX_PAYOUT_COLUMNS)
      .executeTakeFirst();
  },

  /** Arms (or re-arms with a new reason) a failure; see SandboxPixProvider.armFailure. */
  armFailure(db: Db, row: Insertable<SandboxPixArmedFailuresTable> & { created_at: Date }) {
    return db
      .insertInto('sandbox_pix_armed_failures')
      .values(row)
      .onConflict((oc) => oc.columns(['operation', 'key']).doUpdateSet({ reason: row.reason, created_at: row.created_at }))
      .execute();
  },

  /** Disarms and returns an armed failure, if any. */
  takeArmedFailure(db: Db, operation: 'PAYOUT' | 'REFUND', key: string) {
    return db.deleteFrom('sandbox_pix_armed_failures').where('operation', '=', operation).where('key', '=', key).returning('reason').executeTakeFirst();
  },

  /** EM_PROCESSAMENTO refunds of charges armed to have their refund refused, locked (another settler's are skipped). */
  lockArmedRefunds(db: Db) {
    return db
      .selectFrom('sandbox_pix_refunds as r')
      .innerJoin('sandbox_pix_charges as c', 'c.end_to_end_id', 'r.end_to_end_id')
      .innerJoin('sandbox_pix_armed_failures as a', (join) => join.on('a.operation', '=', 'REFUND').onRef('a.key', '=', 'c.txid'))
      .select(['r.refund_id', 'c.txid', 'a.reason'])
      .where('r.status', '=', 'EM_PROCESSAMENTO')
      .orderBy('r.created_at')
      .forUpdate('r')
      .skipLocked()
      .execute();
  },
};

/** The charge's devedor, or who paid it, when recorded. */
export function payerOf(row: Selectable<SandboxPixChargesTable> | Selectable<SandboxPixReceivedTable>, who: 'devedor' | 'payer'): PixPayer | undefined {
  if (!('devedor_document' in row) && who === 'devedor') return undefined;
  const fields = row as Selectable<SandboxPixChargesTable>;
  const documentType = fields[`${who}_document_type`];
  const document = fields[`${who}_document`];
  return documentType && document ? { documentType, document, name: fields[`${who}_name`] ?? '' } : undefined;
}
